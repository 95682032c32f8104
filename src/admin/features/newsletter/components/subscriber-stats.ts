// What the stat cards and the search box of the newsletter screen compute from the list.
import type { Subscriber } from '#admin/features/newsletter/api/subscribers.ts';
import type { SubscriberStatsDto } from '#shared/schemas/newsletter.ts';

/**
 * The same moment one calendar month earlier, clamped to the end of a shorter month
 * (31 March -> 28/29 February), in local time: the spec's "last month" window.
 */
export function oneMonthBefore(now: Date): Date {
  const d = new Date(now);
  const day = d.getDate();
  d.setDate(1);
  d.setMonth(d.getMonth() - 1);
  const daysInMonth = new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
  d.setDate(Math.min(day, daysInMonth));
  return d;
}

/** The stat cards' figures: the same the server counts for a page of the list. */
export type SubscriberStats = SubscriberStatsDto;

export function subscriberStats(list: readonly Subscriber[], now: Date = new Date()): SubscriberStats {
  const since = oneMonthBefore(now).getTime();
  const total = list.length;
  const synced = list.filter((s) => Boolean(s.convertKitId)).length;
  return {
    total,
    active: list.filter((s) => s.isActive).length,
    pending: list.filter((s) => s.status === 'pending').length,
    unsubscribed: list.filter((s) => s.status === 'unsubscribed').length,
    synced,
    syncRate: total ? Math.round((synced / total) * 100) : 0,
    thisMonth: list.filter((s) => new Date(s.subscribedAt).getTime() >= since).length,
  };
}

/** Case-insensitive substring match on e-mail or name; a blank query keeps everyone. */
export function filterSubscribers(list: readonly Subscriber[], query: string): Subscriber[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...list];
  return list.filter((s) => s.email.toLowerCase().includes(q) || (s.name ?? '').toLowerCase().includes(q));
}
