// Admin → Analytics: the site's own figures for a range of UTC days, and podcast downloads.
import { API } from '#shared/api-paths.ts';
import { useQuery } from '#admin/lib/query.ts';
import type { Json } from '#shared/json.ts';
import type { AnalyticsDto } from '#shared/schemas/analytics.ts';

export type Analytics = Json<AnalyticsDto>;
export interface EpisodeDownloads {
  episodeId: number;
  title: string;
  publishedAt: string | null;
  downloads: number;
  first7: number;
  first30: number;
  allTime: number;
  apps: { app: string; downloads: number }[];
  bots: number;
}

const DAY_MS = 86_400_000;
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The ranges offered: today, the last 7 or 30 days, the last 12 months. */
export const PERIODS = [
  { value: 'day', label: 'Today', days: 1 },
  { value: '7d', label: '7 days', days: 7 },
  { value: '30d', label: '30 days', days: 30 },
  { value: '12mo', label: '12 months', days: 365 },
] as const;
export type Period = (typeof PERIODS)[number]['value'];

export function rangeOfPeriod(period: Period, now = Date.now()): { from: string; to: string } {
  const days = PERIODS.find((p) => p.value === period)!.days;
  return { from: dayOf(now - (days - 1) * DAY_MS), to: dayOf(now) };
}

export const useAnalytics = (from: string, to: string) => useQuery<Analytics>(API.analytics(from, to), 'Failed to load the analytics');
export const useDownloads = (from: string, to: string) => useQuery<{ from: string; to: string; episodes: EpisodeDownloads[] }>(API.analyticsDownloads(from, to), 'Failed to load the downloads');
