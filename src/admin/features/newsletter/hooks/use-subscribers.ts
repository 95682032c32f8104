// The subscriber list and its one write (delete), with the spec's toasts.
import { useCallback } from 'react';
import { reportFailure, useQuery } from '#admin/lib/query.ts';
import { toast } from '#lib/toast.ts';
import { deleteSubscriber, SUBSCRIBERS_PATH, type Subscriber } from '#admin/features/newsletter/api/subscribers.ts';

export function useSubscribers() {
  const query = useQuery<Subscriber[]>(SUBSCRIBERS_PATH, 'Failed to fetch subscribers');
  const { refetch } = query;

  /** Deletes and refreshes the list; resolves false (after a toast) when it failed. */
  const remove = useCallback(
    async (subscriber: Subscriber): Promise<boolean> => {
      try {
        await deleteSubscriber(subscriber.id);
      } catch (err) {
        // It may have gone already (404): show the list as it is now.
        if (reportFailure(err, 'Failed to delete the subscriber. Please try again.')) void refetch();
        return false;
      }
      toast({ title: 'Subscriber deleted', description: `${subscriber.email} is no longer on the list.` });
      await refetch();
      return true;
    },
    [refetch],
  );

  return { ...query, remove };
}
