// The comment list split into pending and approved, with approve and delete.
import { useCallback, useMemo } from 'react';
import { useQuery } from '#admin/lib/query.ts';
import { isUnauthorized } from '#lib/api-client.ts';
import { toast } from '#lib/toast.ts';
import { approveComment, COMMENTS_PATH, deleteComment, type AdminComment } from '#admin/features/comments/api/comments.ts';

export function useComments() {
  const query = useQuery<AdminComment[]>(COMMENTS_PATH, 'Failed to fetch comments');
  const { data, refetch } = query;

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

  const pending = useMemo(() => (data ?? []).filter((c) => !c.isApproved), [data]);
  const approved = useMemo(() => (data ?? []).filter((c) => c.isApproved), [data]);

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
