// Visitors and page views over the range, drawn by uPlot (a small canvas chart library, in the
// admin bundle only), with a table of the same figures for screen readers.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Analytics } from '#admin/features/analytics/api/analytics.ts';

export function VisitorsChart({ series }: { series: Analytics['series'] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || series.length === 0) return;
    const hourly = series[0]!.date.length > 10;
    const xs = series.map((s) => Date.parse(hourly ? `${s.date}:00:00Z` : `${s.date}T00:00:00Z`) / 1000);
    const chart = new uPlot(
      {
        width: el.clientWidth || 640,
        height: 240,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        series: [{}, { label: 'Visitors', stroke: '#2553e6', width: 2, fill: 'rgba(37,83,230,0.08)' }, { label: 'Page views', stroke: '#0f766e', width: 2 }],
        axes: [{}, { size: 50 }],
        scales: { x: { time: true } },
      },
      [xs, series.map((s) => s.visitors), series.map((s) => s.pageviews)],
      el,
    );
    const resize = () => chart.setSize({ width: el.clientWidth || 640, height: 240 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [series]);
  return (
    <figure className="rounded-2xl border border-slate-200 bg-white p-4">
      <div ref={box} aria-hidden="true" data-chart />
      <figcaption className="sr-only">
        <table>
          <caption>Visitors and page views</caption>
          <thead>
            <tr>
              <th>Date</th>
              <th>Visitors</th>
              <th>Page views</th>
            </tr>
          </thead>
          <tbody>
            {series.map((s) => (
              <tr key={s.date}>
                <td>{s.date}</td>
                <td>{s.visitors}</td>
                <td>{s.pageviews}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}
