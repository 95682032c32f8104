// The comments in two lists, pending and approved, each one page at a time from the server,
// with approve and delete.
import { useCallback } from 'react';
import { usePagedList } from '#admin/lib/paged-query.ts';
import { isUnauthorized } from '#lib/api-client.ts';
import { toast } from '#lib/toast.ts';
import type { CommentStatsDto } from '#shared/schemas/comment.ts';
import { approveComment, COMMENTS_PATH, deleteComment, type AdminComment } from '#admin/features/comments/api/comments.ts';

const FAILED = 'Failed to fetch comments';

export function useComments() {
  const pending = usePagedList<AdminComment, CommentStatsDto>(COMMENTS_PATH, '', { status: 'pending' }, FAILED);
  const approved = usePagedList<AdminComment, CommentStatsDto>(COMMENTS_PATH, '', { status: 'approved' }, FAILED);
  const { refetch: refetchPending } = pending;
  const { refetch: refetchApproved } = approved;
  const refetch = useCallback(async () => {
    await Promise.all([refetchPending(), refetchApproved()]);
  }, [refetchPending, refetchApproved]);
  // The screen is loaded once both lists are; a failure of either is the screen's failure.
  const query = { data: pending.data && approved.data, error: pending.error ?? approved.error, loading: pending.loading || approved.loading, refetch };

  /** Runs a write (which toasts its own failure); on failure reloads the list unless the session expired. */
  const attempt = useCallback(
    async (write: () => Promise<unknown>): Promise<boolean> => {
      try {
        await write();
        return true;
      } catch (err) {
        if (!isUnauthorized(err)) void refetch();
        return false;
      }
    },
    [refetch],
  );

  const approve = useCallback(
    async (comment: AdminComment) => {
      const ok = await attempt(() => approveComment(comment.id));
      if (!ok) return false;
      toast({ title: 'Comment approved', description: 'The comment is now visible to readers.' });
      await refetch();
      return true;
    },
    [attempt, refetch],
  );

  const remove = useCallback(
    async (comment: AdminComment) => {
      const ok = await attempt(() => deleteComment(comment.id));
      if (!ok) return false;
      toast({ title: 'Comment deleted' });
      await refetch();
      return true;
    },
    [attempt, refetch],
  );

  return { ...query, pending, approved, approve, remove };
}
