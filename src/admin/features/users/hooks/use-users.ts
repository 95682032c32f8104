// The user list with its writes (approve, promote, delete) and the spec's toasts.
import { useCallback, useState } from 'react';
import { handleUnauthorized, useQuery } from '@/admin/lib/query';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import type { UserUpdate } from '@/shared/schemas/user';
import { deleteUser, updateUser, USERS_PATH, type AdminUser } from '../api/users';

/** Toasts the server's message; true when the list should be reloaded to show the truth. */
function fail(err: unknown, fallback: string): boolean {
  if (handleUnauthorized(err)) return false;
  toast({ title: 'Error', description: errorMessage(err, fallback), variant: 'destructive' });
  return true;
}

export function useUsers() {
  const query = useQuery<AdminUser[]>(USERS_PATH, 'Failed to fetch users');
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
        if (fail(err, 'Failed to update the user. Please try again.')) void refetch();
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
        if (fail(err, 'Failed to delete the user. Please try again.')) void refetch();
        return false;
      }
      toast({ title: 'User deleted', description: `${user.username} no longer has an account.` });
      await refetch();
      return true;
    },
    [refetch],
  );

  return { ...query, saving, update, remove };
}
