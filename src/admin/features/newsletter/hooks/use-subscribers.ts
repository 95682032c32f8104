// The subscriber list, one page at a time from the server, and its one write (delete), with the spec's toasts.
import { useCallback, useState } from 'react';
import { usePagedList } from '#admin/lib/paged-query.ts';
import { reportFailure } from '#admin/lib/query.ts';
import { toast } from '#lib/toast.ts';
import type { SubscriberStatsDto } from '#shared/schemas/newsletter.ts';
import { deleteSubscriber, SUBSCRIBERS_PATH, type Subscriber } from '#admin/features/newsletter/api/subscribers.ts';
import { newsletterSince } from '#admin/features/newsletter/components/subscriber-stats.ts';

export function useSubscribers(search: string) {
  // "This Month" counts from one calendar month before the screen opened, on the admin's calendar.
  const [since] = useState(() => newsletterSince());
  const query = usePagedList<Subscriber, SubscriberStatsDto>(SUBSCRIBERS_PATH, search, { since }, 'Failed to fetch subscribers');
  const { refetch } = query;

  /** Deletes and refreshes the page; resolves false (after a toast) when it failed. */
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
