// First-party analytics: the beacon a page sends, and what the owner's figures answer.
import * as z from 'zod';

/** A page view: the page's address, the referrer the browser reported, the viewport's width. */
export const BeaconSchema = z.object({
  n: z.literal('pageview', { error: 'Unknown event' }),
  u: z
    .string({ error: 'Invalid page address' })
    .max(2000, 'Invalid page address')
    // Parsed here, once: the server reads the page's host, path and campaign tags from it.
    .transform((v, ctx) => {
      const url = URL.parse(v);
      if (url && /^https?:$/.test(url.protocol)) return url;
      ctx.addIssue({ code: 'custom', message: 'Invalid page address', input: v });
      return z.NEVER;
    }),
  r: z.string({ error: 'Invalid referrer' }).max(2000, 'Invalid referrer').optional().default(''),
  w: z.number({ error: 'Invalid width' }).int('Invalid width').min(0, 'Invalid width').max(100_000, 'Invalid width'),
});
export type Beacon = z.infer<typeof BeaconSchema>;

const day = z.iso.date({ error: 'Dates are YYYY-MM-DD' });
/** Either end may be left out; the server fills it in and checks the range (src/server/analytics/report.ts rangeOf). */
export const AnalyticsRangeSchema = z.object({ from: day.optional(), to: day.optional() });

export interface AnalyticsTotals {
  visitors: number;
  pageviews: number;
  visits: number;
  /** Share of visits with one page view, 0-100. */
  bounceRate: number;
  /** Average visit length in seconds. */
  visitDuration: number;
}

/** Podcast downloads of one episode: in the range asked for, its first 7 and 30 days after publishing, ever, by app; and the bots' requests (not counted). */
export interface EpisodeDownloadsDto {
  episodeId: number;
  title: string;
  publishedAt: Date | null;
  downloads: number;
  first7: number;
  first30: number;
  allTime: number;
  apps: { app: string; downloads: number }[];
  bots: number;
}

export interface AnalyticsDto extends AnalyticsTotals {
  from: string;
  to: string;
  /** The same figures for the period just before, as long. */
  previous: AnalyticsTotals;
  /** Per day (per hour for a single day): `date` is YYYY-MM-DD or YYYY-MM-DDTHH. */
  series: { date: string; visitors: number; pageviews: number }[];
  topPages: { path: string; visitors: number; pageviews: number }[];
  entryPages: { path: string; visits: number }[];
  referrers: { source: string; visitors: number }[];
  campaigns: { campaign: string; visitors: number }[];
  devices: { device: string; visitors: number }[];
  browsers: { browser: string; visitors: number }[];
  /** Two-letter country codes; empty unless the server has an IP-to-country database (GEOIP_DB). */
  countries: { country: string; visitors: number }[];
  goals: { goal: string; conversions: number; conversionRate: number; value: number; sources: { source: string; conversions: number }[] }[];
}
