// /admin/audit: what staff changed (who, when, what, the id and a short summary), newest first,
// filtered by who, what and the days, and exported as CSV. Nothing here edits or deletes a row.
import { useState } from 'react';
import { usePagedList } from '#admin/lib/paged-query.ts';
import { EmptyState, PageHeader } from '#admin/ui/controls.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { Pager } from '#admin/ui/pager.tsx';
import { DataTable } from '#admin/ui/table.tsx';
import { API } from '#shared/api-paths.ts';
import { formatShortDate } from '#shared/format.ts';
import type { Json } from '#shared/json.ts';
import type { AuditEntryDto } from '#shared/schemas/security.ts';

type Entry = Json<AuditEntryDto>;

/** A filter: one of the values the log holds, or all of them. */
function Choice({ label, all, options, value, onChange }: { label: string; all: string; options: string[]; value: string; onChange: (v: string) => void }) {
  return (
    <label className="text-sm">
      <span className="label">{label}</span>
      <select className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

export default function AuditLog() {
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const filters = { actor, action, from, to };
  const log = usePagedList<Entry, { actors: string[]; actions: string[] }>(API.audit, '', filters, 'Failed to fetch the audit log');
  const stats = log.data?.stats;
  const exportUrl = `${API.auditCsv}?${new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== '')).toString()}`;

  return (
    <>
      <PageHeader
        title="Audit log"
        subtitle="Every change made in the admin: who, when and what. Kept two years; it cannot be edited."
        actions={
          <a className="btn-secondary" href={exportUrl} download>
            Export CSV
          </a>
        }
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-4">
        <Choice label="Who" all="Everyone" options={stats?.actors ?? []} value={actor} onChange={setActor} />
        <Choice label="What" all="Any action" options={stats?.actions ?? []} value={action} onChange={setAction} />
        <label className="text-sm">
          <span className="label">From</span>
          <input className="input" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="text-sm">
          <span className="label">To</span>
          <input className="input" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
      </div>
      {loadState(log, { loading: 'Loading the audit log', failed: 'Failed to fetch the audit log' }) ??
        (log.items.length === 0 ? (
          <EmptyState title="Nothing recorded yet" text="Changes made in the admin appear here." />
        ) : (
          <>
            <DataTable caption="Audit log, newest first" columns={['When', 'Who', 'Action', 'Target', 'Summary']}>
              {log.items.map((e) => (
                <tr key={e.id}>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-600" title={e.ts}>
                    {formatShortDate(e.ts)} {new Date(e.ts).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
                  </td>
                  <td className="px-4 py-3 text-slate-700">{e.actorName}</td>
                  <td className="px-4 py-3 font-mono text-xs text-ink">{e.action}</td>
                  <td className="max-w-[10rem] truncate px-4 py-3 font-mono text-xs text-slate-600" title={e.targetId}>
                    {e.targetId || '—'}
                  </td>
                  <td className="px-4 py-3 text-slate-600">{e.summary || '—'}</td>
                </tr>
              ))}
            </DataTable>
            <Pager label="Audit log pages" list={log} />
          </>
        ))}
    </>
  );
}
