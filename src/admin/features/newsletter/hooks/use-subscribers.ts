// The subscriber list, one page at a time from the server, and its writes (delete, clear a bounce), with their toasts.
import { useCallback, useState } from 'react';
import { usePagedList } from '#admin/lib/paged-query.ts';
import { reportFailure } from '#admin/lib/query.ts';
import { toast } from '#lib/toast.ts';
import type { SubscriberStatsDto } from '#shared/schemas/newsletter.ts';
import { clearBounce, deleteSubscriber, STATUS_LABEL, SUBSCRIBERS_PATH, type Subscriber } from '#admin/features/newsletter/api/subscribers.ts';
import { newsletterSince } from '#admin/features/newsletter/components/subscriber-stats.ts';

/** The list, searched with `search` and, when `tag` is not '', only those holding that tag. */
export function useSubscribers(search: string, tag = '') {
  // "This Month" counts from one calendar month before the screen opened, on the admin's calendar.
  const [since] = useState(() => newsletterSince());
  const query = usePagedList<Subscriber, SubscriberStatsDto>(SUBSCRIBERS_PATH, search, { since, tag }, 'Failed to fetch subscribers');
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

  /** Clears a bounce and refreshes the page (the row and the counts). */
  const unbounce = useCallback(
    async (subscriber: Subscriber): Promise<void> => {
      try {
        const cleared = await clearBounce(subscriber.id);
        toast({ title: 'Bounce cleared', description: `${subscriber.email} is ${STATUS_LABEL[cleared.status].toLowerCase()} again.` });
      } catch (err) {
        reportFailure(err, 'Failed to clear the bounce. Please try again.');
      }
      await refetch();
    },
    [refetch],
  );

  return { ...query, remove, unbounce };
}
