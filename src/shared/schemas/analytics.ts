// First-party analytics: the beacon a page sends, and what the owner's figures answer.
import * as z from 'zod';

/** A page view: the page's address, the referrer the browser reported, the viewport's width. */
export const BeaconSchema = z.object({
  n: z.literal('pageview', { error: 'Unknown event' }),
  u: z
    .string({ error: 'Invalid page address' })
    .max(2000, 'Invalid page address')
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'Invalid page address'),
  r: z.string({ error: 'Invalid referrer' }).max(2000, 'Invalid referrer').optional().default(''),
  w: z.number({ error: 'Invalid width' }).int('Invalid width').min(0, 'Invalid width').max(100_000, 'Invalid width'),
});
export type Beacon = z.infer<typeof BeaconSchema>;

const day = z.iso.date({ error: 'Dates are YYYY-MM-DD' });
export const AnalyticsRangeSchema = z
  .object({ from: day.optional(), to: day.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must not be before from' })
  .refine((q) => !q.from || !q.to || Date.parse(q.to) - Date.parse(q.from) <= 731 * 86_400_000, { path: ['to'], message: 'At most two years at a time' });

export interface AnalyticsTotals {
  visitors: number;
  pageviews: number;
  visits: number;
  /** Share of visits with one page view, 0-100. */
  bounceRate: number;
  /** Average visit length in seconds. */
  visitDuration: number;
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
  goals: { goal: string; conversions: number; conversionRate: number; value: number; sources: { source: string; conversions: number }[] }[];
}
