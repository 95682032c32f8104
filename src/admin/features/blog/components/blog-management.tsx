// /admin/blog: every post (drafts too), one page at a time from the server, counted, searchable
// and filterable by status, with WordPress, Substack and Ghost imports, new post, and delete behind a confirmation.
import { Link } from '#admin/lib/link.tsx';
import { useConfirmDelete } from '#admin/lib/confirm-delete.ts';
import { EmptyState, PageHeader, SearchInput, Spinner, StatCard } from '#admin/ui/controls.tsx';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { DocumentIcon, GlobeIcon, PencilIcon, PlusIcon } from '#admin/ui/icons.tsx';
import { Pager } from '#admin/ui/pager.tsx';
import { SegmentedControl } from '#admin/ui/segmented.tsx';
import { toast } from '#lib/toast.ts';
import { deletePost, type PostListItem } from '#admin/features/blog/api/posts.ts';
import { usePostFilters, type StatusFilter } from '#admin/features/blog/hooks/use-post-filters.ts';
import { PostCard } from './post-card';
import { PublicationImportButtons } from './publication-import-buttons';
import { useWordPressImport } from './wordpress-import-button';

const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All Posts' },
  { value: 'published', label: 'Published' },
  { value: 'draft', label: 'Drafts' },
  { value: 'scheduled', label: 'Scheduled' },
];

export default function BlogManagement() {
  const { list: query, search, setSearch, status, setStatus, active, clear } = usePostFilters();
  const { data, items: visible, loading, error, refetch } = query;
  const everyone = data?.stats.total ?? 0;
  const matching = data?.total ?? 0;
  const deletion = useConfirmDelete(async (post: PostListItem) => {
    await deletePost(post.id);
    toast({ title: 'Post deleted', description: 'The blog post has been successfully deleted.' });
    void refetch();
  });
  const toDelete = deletion.target;
  const wordpress = useWordPressImport(() => void refetch());

  const newPost = (
    <Link href="/admin/blog/new" className="btn-primary">
      <PlusIcon size={16} />
      New Post
    </Link>
  );

  let list: React.ReactNode;
  if (loading && !data) list = <Spinner label="Loading posts" />;
  else if (visible.length === 0)
    list = active ? (
      <EmptyState
        title="No posts found"
        text="No posts match your current filters."
        action={
          <button type="button" className="btn-secondary" onClick={clear}>
            Clear filters
          </button>
        }
      />
    ) : error ? (
      <EmptyState
        title="No posts found"
        text="The posts could not be loaded."
        action={
          <button type="button" className="btn-secondary" onClick={() => void refetch()}>
            Try again
          </button>
        }
      />
    ) : (
      <EmptyState
        title="No posts found"
        text="Get started by creating your first blog post."
        action={
          <Link href="/admin/blog/new" className="btn-primary">
            <PlusIcon size={16} />
            Create First Post
          </Link>
        }
      />
    );
  else
    list = (
      <>
        <ul className="space-y-3" aria-label="Blog posts">
          {visible.map((post) => (
            <li key={post.id}>
              <PostCard post={post} onDelete={deletion.ask} />
            </li>
          ))}
        </ul>
        <Pager label="Post pages" list={query} />
      </>
    );

  return (
    <div>
      <PageHeader
        title="Blog Management"
        subtitle="Write, publish and organise the posts on your blog."
        actions={
          <>
            {wordpress.controls}
            <PublicationImportButtons onImported={() => void refetch()} />
            {newPost}
          </>
        }
      />

      {wordpress.panel}
      <section aria-label="Post statistics" className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Posts" value={everyone} icon={<DocumentIcon />} />
        <StatCard label="Published" value={data?.stats.published ?? 0} icon={<GlobeIcon />} />
        <StatCard label="Drafts" value={data?.stats.drafts ?? 0} icon={<PencilIcon />} />
      </section>

      <div className="mt-8 mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchInput id="post-search" label="Search blog posts" placeholder="Search blog posts..." value={search} onChange={setSearch} />
        <SegmentedControl label="Filter by status" value={status} onChange={setStatus} options={STATUS_OPTIONS} />
      </div>
      {active && visible.length > 0 && (
        <p className="mb-3 text-sm text-slate-500" role="status">
          Showing {matching} of {everyone} posts
        </p>
      )}

      {list}

      <ConfirmDialog
        open={toDelete !== null}
        description={`This action cannot be undone. This will permanently delete the blog post "${toDelete?.title ?? ''}" and remove it from the website.`}
        confirmLabel="Delete Post"
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </div>
  );
}
