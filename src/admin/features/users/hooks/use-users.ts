// The user list, one page at a time from the server, with its writes (approve, promote, delete, clear a sign-in pause) and the spec's toasts.
import { useCallback, useState } from 'react';
import { usePagedList } from '#admin/lib/paged-query.ts';
import { reportFailure } from '#admin/lib/query.ts';
import { toast } from '#lib/toast.ts';
import type { UserStatsDto, UserUpdate } from '#shared/schemas/user.ts';
import { clearSignInPause, deleteUser, requestResetLink, updateUser, USERS_PATH, type AdminUser } from '#admin/features/users/api/users.ts';

export function useUsers(search: string) {
  const query = usePagedList<AdminUser, UserStatsDto>(USERS_PATH, search, {}, 'Failed to fetch users');
  const { refetch } = query;
  /** Flags being saved, shown at once (optimistically) until the list is reloaded. */
  const [saving, setSaving] = useState<Record<string, UserUpdate>>({});

  const update = useCallback(
    async (user: AdminUser, change: UserUpdate): Promise<boolean> => {
      setSaving((s) => ({ ...s, [user.id]: { ...s[user.id], ...change } }));
      try {
        await updateUser(user.id, change);
        toast({ title: 'User updated', description: 'User permissions have been updated successfully.' });
        await refetch();
        return true;
      } catch (err) {
        if (reportFailure(err, 'Failed to update the user. Please try again.')) void refetch();
        return false;
      } finally {
        setSaving(({ [user.id]: _done, ...rest }) => rest);
      }
    },
    [refetch],
  );

  const remove = useCallback(
    async (user: AdminUser): Promise<boolean> => {
      try {
        await deleteUser(user.id);
      } catch (err) {
        if (reportFailure(err, 'Failed to delete the user. Please try again.')) void refetch();
        return false;
      }
      toast({ title: 'User deleted', description: `${user.username} no longer has an account.` });
      await refetch();
      return true;
    },
    [refetch],
  );

  const unpause = useCallback(
    async (user: AdminUser): Promise<void> => {
      try {
        await clearSignInPause(user.id);
        toast({ title: 'Sign-in unpaused', description: `${user.username} can sign in again now.` });
      } catch (err) {
        reportFailure(err, 'Failed to clear the sign-in pause. Please try again.');
      }
      await refetch();
    },
    [refetch],
  );

  /** The link made for an account without e-mail, shown to the admin once. */
  const [handOver, setHandOver] = useState<{ username: string; url: string } | null>(null);
  const resetLink = useCallback(async (user: AdminUser): Promise<void> => {
    try {
      const res = await requestResetLink(user.id);
      if ('url' in res) setHandOver({ username: user.username, url: res.url });
      else toast({ title: 'Reset link sent', description: `A link to set a new password was e-mailed to ${user.username}.` });
    } catch (err) {
      reportFailure(err, 'Failed to make a reset link. Please try again.');
    }
  }, []);

  return { ...query, saving, update, remove, unpause, resetLink, handOver, clearHandOver: () => setHandOver(null) };
}
