import { downloadsReport } from '#server/analytics/downloads.ts';
import { rangeOf } from '#server/analytics/report.ts';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { AnalyticsRangeSchema } from '#shared/schemas/analytics.ts';

/** Podcast downloads per episode: in `from`..`to` (UTC days; the last 30 by default), in its first 7 and 30 days, all time, and by app. */
export const GET = endpoint({ auth: 'admin', query: AnalyticsRangeSchema }, ({ query }) => {
  const { from, to } = rangeOf(query);
  return { from, to, episodes: downloadsReport(getDb(), from, to) };
});
