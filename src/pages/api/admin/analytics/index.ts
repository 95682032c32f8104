import { flushViews } from '#server/analytics/ingest.ts';
import { analyticsReport, rangeOf } from '#server/analytics/report.ts';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { AnalyticsRangeSchema } from '#shared/schemas/analytics.ts';

/** The figures for `from`..`to` (UTC days, inclusive; the last 30 days by default), with the period before. */
export const GET = endpoint({ auth: 'admin', query: AnalyticsRangeSchema }, ({ query }) => {
  // The views of the last second are counted too.
  flushViews();
  const { from, to } = rangeOf(query);
  return analyticsReport(getDb(), from, to);
});
