// /admin/comments: pending comments to approve or delete, approved ones to delete.
// Comment content is plain text from the public form: it is rendered as text, never as HTML.
import { useState } from 'react';
import { useConfirmDelete } from '#admin/lib/confirm-delete.ts';
import { EmptyState, PageHeader } from '#admin/ui/controls.tsx';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { EmailText } from '#admin/ui/email-text.tsx';
import { CheckIcon, TrashIcon } from '#admin/ui/icons.tsx';
import type { PagedList } from '#admin/lib/paged-query.ts';
import { loadState } from '#admin/ui/load-error.tsx';
import { Pager } from '#admin/ui/pager.tsx';
import { formatShortDate } from '#shared/format.ts';
import type { AdminComment } from '#admin/features/comments/api/comments.ts';
import { useComments } from '#admin/features/comments/hooks/use-comments.ts';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w.charAt(0).toUpperCase())
    .join('') || '?';

interface CardProps {
  comment: AdminComment;
  busy: boolean;
  approving: boolean;
  onApprove?: (() => void) | undefined;
  onDelete: () => void;
}

function CommentCard({ comment, busy, approving, onApprove, onDelete }: CardProps) {
  const headingId = `comment-${comment.id}-author`;
  return (
    <li>
      <article aria-labelledby={headingId} className={`rounded-2xl border border-slate-200 bg-white p-5 shadow-sm ${comment.isApproved ? '' : 'border-l-4 border-l-amber-400'}`}>
        <div className="flex items-start gap-3">
          <span aria-hidden="true" className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-semibold text-brand-700">
            {initials(comment.authorName)}
          </span>
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <h3 id={headingId} className="font-semibold text-ink">
                {comment.authorName}
              </h3>
              <time dateTime={comment.createdAt} className="text-xs text-slate-500">
                {formatShortDate(comment.createdAt)}
              </time>
            </div>
            <a href={`mailto:${comment.authorEmail}`} className="text-sm text-slate-600 hover:text-brand-700 hover:underline">
              <EmailText email={comment.authorEmail} />
            </a>
            <p className="mt-1 text-sm text-slate-600">
              on{' '}
              {comment.postTitle && comment.postSlug ? (
                <a href={`/blog/${comment.postSlug}`} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-700 hover:underline">
                  {comment.postTitle}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              ) : (
                <span className="font-medium text-slate-700">{comment.postTitle ?? 'Unknown Post'}</span>
              )}
            </p>
            <p className="mt-3 text-[0.9375rem] leading-relaxed break-words whitespace-pre-line text-slate-800">{comment.content}</p>
            <div className="mt-4 flex flex-wrap gap-2">
              {onApprove && (
                <button type="button" className="btn-primary px-4 py-2" onClick={onApprove} disabled={busy}>
                  <CheckIcon size={16} />
                  {approving ? 'Approving...' : 'Approve'}
                  <span className="sr-only"> comment by {comment.authorName}</span>
                </button>
              )}
              <button type="button" className="btn-secondary px-4 py-2 text-red-700 hover:border-red-300 hover:bg-red-50" onClick={onDelete} disabled={busy}>
                <TrashIcon size={16} />
                Delete
                <span className="sr-only"> comment by {comment.authorName}</span>
              </button>
            </div>
          </div>
        </div>
      </article>
    </li>
  );
}

function Section({ id, title, count, tone, children }: { id: string; title: string; count: number; tone: 'amber' | 'green'; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="mb-10">
      <div className="mb-4 flex items-center gap-3">
        <h2 id={id} className="text-lg font-semibold text-ink">
          {title}
        </h2>
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone === 'amber' ? 'bg-amber-100 text-amber-900' : 'bg-emerald-100 text-emerald-900'}`}>
          {count}
          <span className="sr-only"> {count === 1 ? 'comment' : 'comments'}</span>
        </span>
      </div>
      {children}
    </section>
  );
}

export default function CommentModeration() {
  const query = useComments();
  const { pending, approved, approve, remove } = query;
  const [approvingId, setApprovingId] = useState<number | null>(null);
  const deletion = useConfirmDelete(remove);
  const toDelete = deletion.target;

  const onApprove = async (c: AdminComment) => {
    setApprovingId(c.id);
    await approve(c);
    setApprovingId(null);
  };

  const list = (section: PagedList<AdminComment, unknown>, label: string, empty: { title: string; text: string }, canApprove: boolean) =>
    section.items.length === 0 ? (
      <EmptyState title={empty.title} text={empty.text} />
    ) : (
      <>
        <ul className="space-y-4">
          {section.items.map((c) => (
            <CommentCard
              key={c.id}
              comment={c}
              busy={approvingId === c.id || (deletion.busy && toDelete?.id === c.id)}
              approving={approvingId === c.id}
              onApprove={canApprove ? () => void onApprove(c) : undefined}
              onDelete={() => deletion.ask(c)}
            />
          ))}
        </ul>
        <Pager label={label} list={section} />
      </>
    );

  let body: React.ReactNode;
  const notYet = loadState(query, { loading: 'Loading comments', failed: 'Failed to fetch comments' });
  if (notYet) body = notYet;
  else
    body = (
      <>
        <Section id="pending-heading" title="Pending Approval" count={pending.data?.total ?? 0} tone="amber">
          {list(pending, 'Pending comment pages', { title: 'No pending comments', text: 'New comments from readers wait here until you approve them.' }, true)}
        </Section>
        <Section id="approved-heading" title="Approved Comments" count={approved.data?.total ?? 0} tone="green">
          {list(approved, 'Approved comment pages', { title: 'No approved comments yet', text: 'Approved comments are shown under their blog post.' }, false)}
        </Section>
      </>
    );

  return (
    <>
      <PageHeader title="Comments" subtitle="Manage and moderate blog post comments" />
      {body}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete comment?"
        description="Are you sure you want to delete this comment? This action cannot be undone."
        confirmLabel={deletion.busy ? 'Deleting...' : 'Delete Comment'}
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </>
  );
}
