// /admin/analytics: the site's own figures (no cookies, no personal data) for today, 7 days,
// 30 days, 12 months or a range of UTC days, each compared with the period before: visitors,
// page views, visits, bounce rate and visit length, the chart, top and entry pages, sources,
// campaigns, devices, browsers, countries (with GEOIP_DB) and goals with their conversion rates and sources.
import { useState, type ReactNode } from 'react';
import { PageHeader, StatCard, EmptyState } from '#admin/ui/controls.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { SegmentedControl } from '#admin/ui/segmented.tsx';
import { formatPrice } from '#shared/format.ts';
import { PERIODS, rangeOfPeriod, useAnalytics, type Analytics, type Period } from '#admin/features/analytics/api/analytics.ts';
import { VisitorsChart } from './visitors-chart';

const GOAL_NAMES: Record<string, string> = { newsletter_confirmed: 'Newsletter confirmed', purchase: 'Purchase', booking: 'Booking made' };
const number = new Intl.NumberFormat('en-US');
const regions = new Intl.DisplayNames(['en'], { type: 'region' });
/** 'United Kingdom (GB)' for 'GB'; the code alone when the browser does not know it. */
const countryName = (code: string) => {
  const name = regions.of(code);
  return name && name !== code ? `${name} (${code})` : code;
};

/** The change against the period before, in words ('+12% on the 7 days before'). */
function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? 'no change' : 'new';
  const pct = Math.round(((now - before) / before) * 100);
  return `${pct > 0 ? '+' : ''}${pct}% on the period before`;
}

const duration = (s: number) => (s >= 60 ? `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s` : `${s}s`);

function Table({ title, columns, rows }: { title: string; columns: string[]; rows: ReactNode[][] }) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-4">
      <h2 className="text-sm font-semibold text-ink">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">Nothing yet.</p>
      ) : (
        <table className="mt-2 w-full text-sm">
          <thead>
            <tr className="text-left text-xs text-slate-500">
              {columns.map((c, i) => (
                <th key={c} className={`py-1 font-medium ${i > 0 ? 'text-right' : ''}`}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} className="border-t border-slate-100">
                {r.map((cell, j) => (
                  <td key={j} className={`py-1.5 ${j > 0 ? 'text-right tabular-nums' : 'break-all'}`}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Report({ data }: { data: Analytics }) {
  const p = data.previous;
  return (
    <div className="space-y-6">
      <section aria-label="Totals" className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <StatCard label="Unique visitors" value={number.format(data.visitors)} detail={change(data.visitors, p.visitors)} />
        <StatCard label="Page views" value={number.format(data.pageviews)} detail={change(data.pageviews, p.pageviews)} />
        <StatCard label="Visits" value={number.format(data.visits)} detail={change(data.visits, p.visits)} />
        <StatCard label="Bounce rate" value={`${data.bounceRate}%`} detail={`${p.bounceRate}% the period before`} />
        <StatCard label="Visit duration" value={duration(data.visitDuration)} detail={`${duration(p.visitDuration)} the period before`} />
      </section>
      <VisitorsChart series={data.series} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Table title="Top pages" columns={['Page', 'Visitors', 'Views']} rows={data.topPages.map((r) => [r.path, r.visitors, r.pageviews])} />
        <Table title="Entry pages" columns={['Page', 'Visits']} rows={data.entryPages.map((r) => [r.path, r.visits])} />
        <Table title="Sources" columns={['Source', 'Visitors']} rows={data.referrers.map((r) => [r.source, r.visitors])} />
        <Table title="Campaigns" columns={['Campaign', 'Visitors']} rows={data.campaigns.map((r) => [r.campaign, r.visitors])} />
        <Table title="Devices" columns={['Device', 'Visitors']} rows={data.devices.map((r) => [r.device, r.visitors])} />
        <Table title="Browsers" columns={['Browser', 'Visitors']} rows={data.browsers.map((r) => [r.browser, r.visitors])} />
        {/* Only a server with an IP-to-country database (GEOIP_DB) knows countries. */}
        {data.countries.length > 0 && <Table title="Countries" columns={['Country', 'Visitors']} rows={data.countries.map((r) => [countryName(r.country), r.visitors])} />}
      </div>
      <Table
        title="Goals"
        columns={['Goal', 'Conversions', 'Rate', 'Value', 'Top sources']}
        rows={data.goals.map((g) => [
          GOAL_NAMES[g.goal] ?? g.goal,
          g.conversions,
          `${g.conversionRate}%`,
          g.value ? formatPrice(g.value) : '—',
          g.sources
            .slice(0, 3)
            .map((s) => `${s.source} (${s.conversions})`)
            .join(', '),
        ])}
      />
    </div>
  );
}

export default function AnalyticsAdmin() {
  const [period, setPeriod] = useState<Period | 'custom'>('30d');
  const [custom, setCustom] = useState(() => rangeOfPeriod('30d'));
  const range = period === 'custom' ? custom : rangeOfPeriod(period);
  const data = useAnalytics(range.from, range.to);
  return (
    <>
      <PageHeader title="Analytics" subtitle="Your own figures: no cookies, no personal data kept. Days are UTC." />
      <div className="mb-6 flex flex-wrap items-end gap-3">
        <SegmentedControl label="Period" value={period} onChange={setPeriod} options={[...PERIODS.map((p) => ({ value: p.value, label: p.label })), { value: 'custom', label: 'Range' }]} />
        {period === 'custom' && (
          <>
            <label className="text-sm text-slate-700">
              From <input type="date" className="ml-1 input w-auto" value={custom.from} max={custom.to} onChange={(e) => e.target.value && setCustom({ ...custom, from: e.target.value })} />
            </label>
            <label className="text-sm text-slate-700">
              To <input type="date" className="ml-1 input w-auto" value={custom.to} min={custom.from} onChange={(e) => e.target.value && setCustom({ ...custom, to: e.target.value })} />
            </label>
          </>
        )}
      </div>
      {loadState(data, { loading: 'Loading analytics', failed: 'Failed to load the analytics' }) ??
        (data.data &&
          (data.data.pageviews === 0 && data.data.previous.pageviews === 0 ? (
            <EmptyState title="No visits yet" text="Page views show here a second after they happen." />
          ) : (
            <Report data={data.data} />
          )))}
    </>
  );
}
