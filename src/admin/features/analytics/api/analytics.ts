// Admin → Analytics: the site's own figures for a range of UTC days.
import { API } from '#shared/api-paths.ts';
import { useQuery } from '#admin/lib/query.ts';
import type { Json } from '#shared/json.ts';
import type { AnalyticsDto } from '#shared/schemas/analytics.ts';
import { lastDays } from '#shared/time.ts';

export type Analytics = Json<AnalyticsDto>;
/** The ranges offered: today, the last 7 or 30 days, the last 12 months. */
export const PERIODS = [
  { value: 'day', label: 'Today', days: 1 },
  { value: '7d', label: '7 days', days: 7 },
  { value: '30d', label: '30 days', days: 30 },
  { value: '12mo', label: '12 months', days: 365 },
] as const;
export type Period = (typeof PERIODS)[number]['value'];

export const rangeOfPeriod = (period: Period, now = Date.now()) => lastDays(PERIODS.find((p) => p.value === period)!.days, now);

export const useAnalytics = (from: string, to: string) => useQuery<Analytics>(API.analytics(from, to), 'Failed to load the analytics');
