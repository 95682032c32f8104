// The dashboard's summary of the site's own analytics: the last 7 days' visitors, page views and
// goals against the 7 before, the top pages, and the way to Admin → Analytics.
import { Link } from '#admin/lib/link.tsx';
import { useQuery } from '#admin/lib/query.ts';
import { API } from '#shared/api-paths.ts';
import type { Json } from '#shared/json.ts';
import type { AnalyticsDto } from '#shared/schemas/analytics.ts';
import { lastDays } from '#shared/time.ts';

const number = new Intl.NumberFormat('en-US');

export function TrafficSummary() {
  const { from, to } = lastDays(7);
  const data = useQuery<Json<AnalyticsDto>>(API.analytics(from, to)).data;
  const goals = data?.goals.reduce((n, g) => n + g.conversions, 0) ?? 0;
  return (
    <section aria-labelledby="traffic-heading" className="mb-4 flex flex-wrap items-center justify-between gap-4 rounded-2xl border border-slate-200 bg-white px-5 py-4 shadow-sm">
      <div>
        <h2 id="traffic-heading" className="text-sm font-semibold text-ink">
          Visitors, last 7 days
        </h2>
        <p className="text-2xl font-bold text-ink" data-visitors>
          {data ? number.format(data.visitors) : '—'}
        </p>
        <p className="text-xs text-slate-600">
          {data ? `${number.format(data.pageviews)} page views · ${number.format(goals)} goals · ${number.format(data.previous.visitors)} visitors the 7 days before` : 'Loading analytics'}
        </p>
      </div>
      {data && data.topPages.length > 0 && (
        <ol className="text-sm text-slate-700">
          {data.topPages.slice(0, 3).map((p) => (
            <li key={p.path}>
              {p.path} <span className="text-slate-500">({p.visitors})</span>
            </li>
          ))}
        </ol>
      )}
      <Link href="/admin/analytics" className="btn-secondary">
        Open analytics
      </Link>
    </section>
  );
}
