// Admin → Podcast → downloads: per episode, counted by the IAB's rules (one listener once a day,
// probes and bots left out): the last 30 days, its first 7 and 30 days, all time, the apps, and
// the requests of bots and prefetchers in the last 30 days (listed, never counted).
import { useQuery } from '#admin/lib/query.ts';
import { loadState } from '#admin/ui/load-error.tsx';
import { DataTable } from '#admin/ui/table.tsx';
import { API } from '#shared/api-paths.ts';
import type { Json } from '#shared/json.ts';
import type { EpisodeDownloadsDto } from '#shared/schemas/analytics.ts';
import { lastDays } from '#shared/time.ts';

export function EpisodeDownloadsTable() {
  const { from, to } = lastDays(30);
  const list = useQuery<{ episodes: Json<EpisodeDownloadsDto>[] }>(API.analyticsDownloads(from, to), 'Failed to load the downloads');
  return (
    <section aria-labelledby="downloads-heading" className="mt-10 space-y-3">
      <h2 id="downloads-heading" className="text-lg font-semibold text-ink">
        Downloads
      </h2>
      <p className="text-sm text-slate-600">Counted by the IAB podcast rules: a listener once a day per episode; players checking the file and known bots are not counted.</p>
      {loadState(list, { loading: 'Loading downloads', failed: 'Failed to load the downloads' }) ?? (
        <DataTable caption="Downloads per episode" columns={['Episode', 'Last 30 days', 'First 7 days', 'First 30 days', 'All time', 'Apps', 'Bots (not counted)']}>
          {(list.data?.episodes ?? []).map((e) => (
            <tr key={e.episodeId}>
              <td className="px-4 py-3 font-medium text-ink">{e.title}</td>
              <td className="px-4 py-3 tabular-nums">{e.downloads}</td>
              <td className="px-4 py-3 tabular-nums">{e.first7}</td>
              <td className="px-4 py-3 tabular-nums">{e.first30}</td>
              <td className="px-4 py-3 tabular-nums">{e.allTime}</td>
              <td className="px-4 py-3 text-slate-600">{e.apps.map((a) => `${a.app} ${a.downloads}`).join(', ') || '—'}</td>
              <td className="px-4 py-3 text-slate-600 tabular-nums">{e.bots}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
