// One post in the admin list: thumbnail, title with its status, two lines of excerpt (the
// list answer fills it in from the content when a post has none), date, read time, and the
// view / edit / delete actions.
import { Link } from '#admin/lib/link.tsx';
import { PublishStatus } from '#admin/ui/publish-status.tsx';
import { CalendarIcon, ClockIcon, ExternalLinkIcon, PencilIcon, TrashIcon } from '#admin/ui/icons.tsx';
import { fallbackCover, formatReadTime, formatShortDate } from '#shared/format.ts';
import type { PostListItem } from '#admin/features/blog/api/posts.ts';

const iconButton =
  'inline-flex h-9 w-9 items-center justify-center rounded-lg text-slate-500 transition hover:bg-slate-100 hover:text-ink focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600';

export function PostCard({ post, onDelete }: { post: PostListItem; onDelete: (post: PostListItem) => void }) {
  const editHref = `/admin/blog/edit/${post.id}`;
  return (
    <article className="group flex gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-slate-300 hover:shadow-md sm:p-5">
      <img src={post.featuredImage || fallbackCover(post.id)} alt="" loading="lazy" className="hidden h-24 w-36 shrink-0 rounded-xl bg-slate-100 object-cover sm:block" />
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-x-2.5 gap-y-1">
              <h2 className="min-w-0 text-base leading-snug font-semibold text-ink">
                <Link href={editHref} className="rounded hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
                  {post.title}
                </Link>
              </h2>
              <PublishStatus isPublished={post.isPublished} scheduledAt={post.scheduledAt} />
            </div>
            <p className="mt-0.5 text-xs font-medium tracking-wide text-slate-500 uppercase">{post.category || 'General'}</p>
          </div>
          <div className="-mt-1 -mr-1 flex shrink-0 items-center">
            {post.isPublished && (
              <a href={`/blog/${post.slug}`} target="_blank" rel="noopener" className={iconButton} aria-label={`View post ${post.title}`} title="View on the site">
                <ExternalLinkIcon />
              </a>
            )}
            <Link href={editHref} className={iconButton} aria-label={`Edit post ${post.title}`} title="Edit">
              <PencilIcon />
            </Link>
            <button type="button" onClick={() => onDelete(post)} className={`${iconButton} hover:bg-red-50 hover:text-red-700`} aria-label={`Delete post ${post.title}`} title="Delete">
              <TrashIcon />
            </button>
          </div>
        </div>
        <p className="mt-2 line-clamp-2 text-sm leading-6 text-slate-600">{post.excerpt}</p>
        <p className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-500">
          <span className="inline-flex items-center gap-1.5">
            <CalendarIcon size={14} />
            <time dateTime={post.createdAt}>{formatShortDate(post.createdAt)}</time>
          </span>
          <span className="inline-flex items-center gap-1.5">
            <ClockIcon size={14} />
            {formatReadTime(post.readTime)}
          </span>
        </p>
      </div>
    </article>
  );
}
