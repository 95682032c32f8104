// /admin/newsletter: subscriber stats, search and a tag filter, tagging a selection or adding it to
// a sequence, CSV export and import, links to Kit, each subscriber's own page, and deletion.
import { useState } from 'react';
import { useConfirmDelete } from '#admin/lib/confirm-delete.ts';
import { reportFailure, useQuery } from '#admin/lib/query.ts';
import { Link } from '#admin/lib/link.tsx';
import { toast } from '#lib/toast.ts';
import { apiBlob } from '#lib/api-client.ts';
import { Badge, EmptyState, PageHeader, SearchInput, StatCard } from '#admin/ui/controls.tsx';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { EmailText } from '#admin/ui/email-text.tsx';
import { CalendarIcon, ExternalLinkIcon, TrashIcon, UsersIcon } from '#admin/ui/icons.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { Pager } from '#admin/ui/pager.tsx';
import { API } from '#shared/api-paths.ts';
import { formatCount, formatShortDate } from '#shared/format.ts';
import { KIT_DASHBOARD_URL, KIT_SUBSCRIBERS_URL, STATUS_LABEL, type Subscriber } from '#admin/features/newsletter/api/subscribers.ts';
import { useSubscribers } from '#admin/features/newsletter/hooks/use-subscribers.ts';
import { tagNames, tagSelection, type Tag } from '#admin/features/newsletter/api/person.ts';
import { CheckCircleIcon, DownloadIcon, MinusCircleIcon, SyncIcon } from './icons';
import { EnrolSelected } from './enrol-selected';
import { SendingDomain } from './sending-domain';
import { SubscriberImportPanel } from './subscriber-import';
import { localDay } from './subscriber-stats';

function ExternalButton({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="btn-secondary">
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
      <ExternalLinkIcon size={16} />
    </a>
  );
}

function SyncStatus({ subscriber }: { subscriber: Subscriber }) {
  const synced = Boolean(subscriber.convertKitId);
  return (
    <span className="flex items-center gap-2">
      <span role="img" aria-label={synced ? 'Synced' : 'Not synced'} title={synced ? 'Synced to Kit' : 'Not synced to Kit'} className={synced ? 'text-emerald-600' : 'text-slate-500'}>
        {synced ? <CheckCircleIcon /> : <MinusCircleIcon />}
      </span>
      {synced ? <code className="font-mono text-xs text-slate-700">{subscriber.convertKitId}</code> : <span className="text-slate-500">—</span>}
    </span>
  );
}

const STATUS_TONE = { active: 'green', pending: 'amber', unsubscribed: 'grey', bounced: 'red' } as const;

interface Selection {
  ids: Set<number>;
  toggle: (id: number) => void;
  setAll: (ids: number[], on: boolean) => void;
}

function SubscriberTable({
  rows,
  selection,
  onDelete,
  onClearBounce,
}: {
  rows: Subscriber[];
  selection: Selection;
  onDelete: (s: Subscriber) => void;
  onClearBounce: (s: Subscriber) => Promise<void>;
}) {
  const allOnPage = rows.length > 0 && rows.every((r) => selection.ids.has(r.id));
  const [clearing, setClearing] = useState<number | null>(null);
  const clear = async (s: Subscriber) => {
    setClearing(s.id);
    try {
      await onClearBounce(s);
    } finally {
      setClearing(null);
    }
  };
  const th = 'px-4 py-3';
  return (
    // Narrow screens fold the Kit and date columns into the subscriber cell; the region is
    // focusable so the table can still be scrolled from the keyboard if it ever overflows.
    <div role="region" aria-label="Subscribers" tabIndex={0} className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-brand-600">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className={`${th} w-10`}>
              <input
                type="checkbox"
                aria-label="Select every subscriber on this page"
                checked={allOnPage}
                onChange={(e) =>
                  selection.setAll(
                    rows.map((r) => r.id),
                    e.target.checked,
                  )
                }
              />
            </th>
            <th scope="col" className={th}>
              Subscriber
            </th>
            <th scope="col" className={`${th} hidden md:table-cell`}>
              Kit ID
            </th>
            <th scope="col" className={`${th} hidden md:table-cell`}>
              Subscribed
            </th>
            <th scope="col" className={th}>
              Status
            </th>
            <th scope="col" className={`${th} w-14`}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((s) => (
            <tr key={s.id} className="align-middle hover:bg-slate-50/60">
              <td className="px-4 py-3">
                <input type="checkbox" aria-label={`Select ${s.email}`} checked={selection.ids.has(s.id)} onChange={() => selection.toggle(s.id)} />
              </td>
              <td className="px-4 py-3">
                <p className="font-medium text-ink">
                  <Link href={`/admin/newsletter/subscribers/${s.id}`} className="hover:underline" aria-label={`Open ${s.email}`}>
                    <EmailText email={s.email} />
                  </Link>
                </p>
                {s.name && <p className="mt-0.5 text-slate-600">{s.name}</p>}
                {s.tags.length > 0 && (
                  <ul className="mt-1 flex flex-wrap gap-1" aria-label={`Tags of ${s.email}`}>
                    {s.tags.map((t) => (
                      <li key={t}>
                        <Badge tone="blue">{t}</Badge>
                      </li>
                    ))}
                  </ul>
                )}
                <p className="mt-1 text-xs text-slate-500 md:hidden">
                  {s.convertKitId ? `Synced · ${s.convertKitId}` : 'Not synced'} · {formatShortDate(s.subscribedAt)}
                </p>
              </td>
              <td className="hidden px-4 py-3 md:table-cell">
                <SyncStatus subscriber={s} />
              </td>
              <td className="hidden px-4 py-3 whitespace-nowrap text-slate-700 md:table-cell">
                <time dateTime={s.subscribedAt}>{formatShortDate(s.subscribedAt)}</time>
              </td>
              <td className="px-4 py-3">
                <Badge tone={STATUS_TONE[s.status]}>{STATUS_LABEL[s.status]}</Badge>
                {s.status === 'bounced' && (
                  // A refusal that was not about the mailbox, or a mailbox since mended: the owner puts them back.
                  <button
                    type="button"
                    aria-label={`Clear bounce of ${s.email}`}
                    title="Mark this address as deliverable again"
                    disabled={clearing === s.id}
                    onClick={() => void clear(s)}
                    className="ml-2 rounded-lg px-2 py-1 text-xs font-semibold text-brand-700 transition hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-50"
                  >
                    {clearing === s.id ? 'Clearing...' : 'Clear bounce'}
                  </button>
                )}
              </td>
              <td className="px-2 py-3 text-right">
                <button
                  type="button"
                  aria-label={`Delete subscriber ${s.email}`}
                  title="Delete subscriber"
                  onClick={() => onDelete(s)}
                  className="rounded-lg p-2 text-slate-500 transition hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  <TrashIcon />
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Downloads the CSV the server streams, named with the admin's own day. A failure (an expired
 * session, a server error) is toasted rather than saved as the file.
 */
async function exportCsv() {
  try {
    const url = URL.createObjectURL(await apiBlob(`${API.subscribersCsv}?date=${localDay()}`));
    const a = document.createElement('a');
    a.href = url;
    a.download = `newsletter-subscribers-${localDay()}.csv`;
    a.style.display = 'none';
    document.body.append(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 0);
  } catch (err) {
    reportFailure(err, 'Failed to export the subscribers. Please try again.');
  }
}

/** Adds tags to the selected subscribers. */
function TagSelected({ ids, onDone }: { ids: number[]; onDone: () => Promise<void> }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const names = tagNames(text);
    if (names.length === 0) return;
    setBusy(true);
    try {
      const { tagged } = await tagSelection(ids, names);
      toast({ title: 'Tagged', description: `${formatCount(tagged)} of ${formatCount(ids.length)} selected gained ${names.join(', ')}.` });
      setText('');
    } catch (err) {
      reportFailure(err, 'The selection could not be tagged. Please try again.');
    } finally {
      setBusy(false);
      await onDone();
    }
  };
  return (
    <form className="mb-4 flex flex-wrap items-end gap-2 rounded-2xl border border-slate-200 bg-brand-50 p-3" onSubmit={(e) => void submit(e)}>
      <div className="flex grow flex-col">
        <label htmlFor="tag-selected" className="text-sm font-medium text-slate-800">
          Tag the {formatCount(ids.length)} selected (separate tags with commas)
        </label>
        <input id="tag-selected" className="mt-1 input" value={text} maxLength={1000} onChange={(e) => setText(e.target.value)} />
      </div>
      <button type="submit" className="btn-primary" disabled={busy || tagNames(text).length === 0}>
        Tag selected
      </button>
    </form>
  );
}

export default function NewsletterManagement() {
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const selection: Selection = {
    ids: selected,
    toggle: (id) =>
      setSelected((was) => {
        const next = new Set(was);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    setAll: (ids, on) =>
      setSelected((was) => {
        const next = new Set(was);
        for (const id of ids)
          if (on) next.add(id);
          else next.delete(id);
        return next;
      }),
  };
  const tagList = useQuery<Tag[]>(API.tags);
  const query = useSubscribers(search, tag);
  const { data, items: rows, remove, unbounce } = query;
  const deletion = useConfirmDelete(remove);
  const toDelete = deletion.target;

  const stats = data?.stats;
  const everyone = stats?.total ?? 0;
  const matching = data?.total ?? 0;
  const searching = search.trim() !== '' || tag !== '';
  /** A count, or a dash until the list has loaded (never a misleading 0). */
  const known = (n: number | undefined) => n ?? '—';
  const clearSearch = () => {
    setSearch('');
    // The button goes away with the empty state: keep the keyboard where the search is.
    document.getElementById('subscriber-search')?.focus();
  };

  let list: React.ReactNode;
  const pending = loadState(query, { loading: 'Loading subscribers', failed: 'Failed to fetch subscribers' });
  if (pending) list = pending;
  else if (everyone === 0) list = <EmptyState title="No subscribers yet" text="People who subscribe on the site will appear here." />;
  else if (rows.length === 0)
    list = (
      <EmptyState
        title="No subscribers found"
        text={tag && !search.trim() ? `No subscriber holds the tag “${tag}”.` : `No subscriber's e-mail or name matches “${search.trim()}”.`}
        action={
          <button type="button" className="btn-secondary" onClick={clearSearch}>
            Clear search
          </button>
        }
      />
    );
  else
    list = (
      <>
        {selected.size > 0 && (
          <>
            <TagSelected
              ids={[...selected]}
              onDone={async () => {
                setSelected(new Set());
                await Promise.all([query.refetch(), tagList.refetch()]);
              }}
            />
            <EnrolSelected ids={[...selected]} onDone={() => setSelected(new Set())} />
          </>
        )}
        <SubscriberTable rows={rows} selection={selection} onDelete={deletion.ask} onClearBounce={unbounce} />
        <Pager label="Subscriber pages" list={query} />
      </>
    );

  return (
    <>
      <PageHeader
        title="Newsletter Management"
        subtitle="Subscribers from the site and their Kit sync status."
        actions={
          <>
            <button type="button" className="btn-primary" onClick={() => void exportCsv()} disabled={everyone === 0} title={everyone === 0 ? 'Nothing to export yet' : undefined}>
              <DownloadIcon size={16} />
              Export CSV
            </button>
            <button type="button" className="btn-secondary" aria-expanded={importing} onClick={() => setImporting((open) => !open)}>
              Import subscribers
            </button>
            <ExternalButton href={KIT_SUBSCRIBERS_URL}>Kit Subscribers</ExternalButton>
            <ExternalButton href={KIT_DASHBOARD_URL}>Kit Dashboard</ExternalButton>
          </>
        }
      />

      <section aria-label="Subscriber statistics" className="mb-8 grid gap-4 sm:grid-cols-3">
        <StatCard
          label="Total Subscribers"
          value={known(stats?.total)}
          detail={
            stats &&
            [`${stats.active} active`, stats.pending && `${stats.pending} pending`, stats.unsubscribed && `${stats.unsubscribed} unsubscribed`, stats.bounced && `${stats.bounced} bounced`]
              .filter(Boolean)
              .join(' · ')
          }
          icon={<UsersIcon />}
        />
        <StatCard label="Synced" value={known(stats?.synced)} detail={stats && `${stats.syncRate}% sync rate`} icon={<SyncIcon />} />
        <StatCard label="This Month" value={known(stats?.thisMonth)} detail="Subscribed in the last month" icon={<CalendarIcon />} />
      </section>

      {importing && <SubscriberImportPanel onImported={() => void query.refetch()} onClose={() => setImporting(false)} />}

      <SendingDomain />

      <section>
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 className="text-lg font-semibold text-ink">Subscribers</h2>
            {everyone > 0 && (
              <p className="text-sm text-slate-600" role="status">
                {searching ? `Showing ${formatCount(matching)} of ${formatCount(everyone)}` : `${formatCount(everyone)} in total`}
              </p>
            )}
          </div>
          {everyone > 0 && (
            <div className="flex flex-wrap items-end gap-3">
              {(tagList.data?.length ?? 0) > 0 && (
                <div className="flex flex-col">
                  <label htmlFor="subscriber-tag-filter" className="text-sm font-medium text-slate-800">
                    Tag
                  </label>
                  <select id="subscriber-tag-filter" className="mt-1 input" value={tag} onChange={(e) => setTag(e.target.value)}>
                    <option value="">All tags</option>
                    {tagList.data?.map((t) => (
                      <option key={t.name} value={t.name}>
                        {t.name} ({formatCount(t.subscribers)})
                      </option>
                    ))}
                  </select>
                </div>
              )}
              <SearchInput id="subscriber-search" label="Search subscribers by e-mail or name" placeholder="Search by e-mail or name..." value={search} onChange={setSearch} />
            </div>
          )}
        </div>
        {list}
      </section>

      <ConfirmDialog
        open={toDelete !== null}
        title="Delete subscriber?"
        description={
          toDelete && (
            <>
              This will permanently remove <strong className="font-semibold text-ink">{toDelete.email}</strong> from the subscriber list. This action cannot be undone.
              {toDelete.convertKitId && ' They will also be unsubscribed in Kit.'}
            </>
          )
        }
        confirmLabel={deletion.busy ? 'Deleting...' : 'Delete Subscriber'}
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </>
  );
}
