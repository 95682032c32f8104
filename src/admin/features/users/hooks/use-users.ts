// The user list with its writes (approve, promote, delete) and the spec's toasts.
import { useCallback, useState } from 'react';
import { handleUnauthorized, useQuery } from '@/admin/lib/query';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import type { UserUpdate } from '@/shared/schemas/user';
import { deleteUser, updateUser, USERS_PATH, type AdminUser } from '../api/users';

function fail(err: unknown, fallback: string) {
  if (!handleUnauthorized(err)) toast({ title: 'Error', description: errorMessage(err, fallback), variant: 'destructive' });
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
        fail(err, 'Failed to update the user. Please try again.');
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
        fail(err, 'Failed to delete the user. Please try again.');
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
