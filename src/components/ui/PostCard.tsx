// A blog post card: image (or a fallback cover), category, title, excerpt, date, read time.
// Rendered on the server for static lists and inside the blog island for filtered ones.
import { fallbackCover, formatMonthDay, formatReadTime } from '#shared/format.ts';
import type { PostSummary } from '#shared/schemas/blog-post.ts';

/** A card is a third of the 1152 px column on large screens, half on tablets, the width on phones. */
const CARD_SIZES = '(min-width: 1024px) 368px, (min-width: 640px) 50vw, 100vw';

interface Props {
  post: PostSummary;
  /** Images above the fold load eagerly. */
  eager?: boolean;
  className?: string;
  /** The text of the card's link ('Read Article' on the blog, 'Read More' on the home page). */
  linkLabel?: string;
}

export function PostCard({ post, eager = false, className = '', linkLabel = 'Read Article' }: Props) {
  const href = `/blog/${post.slug}`;
  return (
    <article className={`group flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md ${className}`}>
      <a href={href} tabIndex={-1} aria-hidden="true" className="block aspect-[16/9] overflow-hidden bg-slate-100">
        <img
          src={post.featuredImage || fallbackCover(post.id)}
          {...(post.featuredSrcset ? { srcSet: post.featuredSrcset, sizes: CARD_SIZES } : {})}
          alt=""
          width={1200}
          height={675}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          className="h-full w-full object-cover transition duration-300 group-hover:scale-[1.02]"
        />
      </a>
      <div className="flex flex-1 flex-col p-5">
        <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">{post.category || 'General'}</p>
        <h3 className="mt-2 text-lg leading-snug font-bold text-ink">
          <a href={href} className="hover:text-brand-700">
            {post.title}
          </a>
        </h3>
        {/* flex-1 on a wrapper: on the clamped paragraph itself it would stretch the box and show a 4th line. */}
        <div className="flex-1">
          <p className="mt-2 line-clamp-3 text-sm leading-6 text-slate-600">{post.excerpt}</p>
        </div>
        <div className="mt-4 flex items-center justify-between text-xs text-slate-500">
          <span>
            <time dateTime={post.createdAt}>{formatMonthDay(post.createdAt)}</time> · {formatReadTime(post.readTime)}
          </span>
          <a href={href} className="font-semibold text-brand-700 hover:text-brand-900" aria-label={`${linkLabel}: ${post.title}`}>
            {linkLabel} →
          </a>
        </div>
      </div>
    </article>
  );
}
