// /admin/segments: saved rules over the list (tags any/all/none, source, subscription dates,
// customers and clients), each with how many active subscribers it holds now; the count follows
// the rules as they are edited.
import { useEffect, useState, type FormEvent } from 'react';
import { useConfirmDelete } from '#admin/lib/confirm-delete.ts';
import { reportFailure, useQuery } from '#admin/lib/query.ts';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { EmptyState, PageHeader } from '#admin/ui/controls.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { errorMessage } from '#lib/api-client.ts';
import { toast } from '#lib/toast.ts';
import { formatCount } from '#shared/format.ts';
import { countSegment, createSegment, deleteSegment, SEGMENTS_PATH, updateSegment, type Segment, type SegmentMatch } from '#admin/features/segments/api/segments.ts';

interface Draft {
  id: number | null;
  name: string;
  tagsAny: string;
  tagsAll: string;
  tagsNone: string;
  sources: string;
  subscribedAfter: string;
  subscribedBefore: string;
  customer: '' | 'yes' | 'no';
  client: '' | 'yes' | 'no';
}

const EMPTY: Draft = { id: null, name: '', tagsAny: '', tagsAll: '', tagsNone: '', sources: '', subscribedAfter: '', subscribedBefore: '', customer: '', client: '' };
const list = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
const yesNo = (v: Draft['customer']) => (v === '' ? undefined : v === 'yes');

/** The rules a draft states (blank fields state none). */
function matchOf(d: Draft): SegmentMatch {
  const m: SegmentMatch = {};
  if (list(d.tagsAny).length) m.tagsAny = list(d.tagsAny);
  if (list(d.tagsAll).length) m.tagsAll = list(d.tagsAll);
  if (list(d.tagsNone).length) m.tagsNone = list(d.tagsNone);
  if (list(d.sources).length) m.sources = list(d.sources);
  if (d.subscribedAfter) m.subscribedAfter = d.subscribedAfter;
  if (d.subscribedBefore) m.subscribedBefore = d.subscribedBefore;
  const customer = yesNo(d.customer);
  const client = yesNo(d.client);
  if (customer !== undefined) m.customer = customer;
  if (client !== undefined) m.client = client;
  return m;
}

const draftOf = (s: Segment): Draft => ({
  id: s.id,
  name: s.name,
  tagsAny: (s.match.tagsAny ?? []).join(', '),
  tagsAll: (s.match.tagsAll ?? []).join(', '),
  tagsNone: (s.match.tagsNone ?? []).join(', '),
  sources: (s.match.sources ?? []).join(', '),
  subscribedAfter: s.match.subscribedAfter ?? '',
  subscribedBefore: s.match.subscribedBefore ?? '',
  customer: s.match.customer === undefined ? '' : s.match.customer ? 'yes' : 'no',
  client: s.match.client === undefined ? '' : s.match.client ? 'yes' : 'no',
});

/** The count of the rules being edited, asked again a moment after each change. */
function useLiveCount(match: SegmentMatch): { count: number | null; problem: string | null } {
  const key = JSON.stringify(match);
  const [state, setState] = useState<{ count: number | null; problem: string | null }>({ count: null, problem: null });
  useEffect(() => {
    let live = true;
    const timer = window.setTimeout(() => {
      countSegment(JSON.parse(key) as SegmentMatch).then(
        (r) => live && setState({ count: r.count, problem: null }),
        (err: unknown) => live && setState({ count: null, problem: errorMessage(err, 'These rules cannot be counted.') }),
      );
    }, 250);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [key]);
  return state;
}

function Editor({ initial, onSaved, onCancel }: { initial: Draft; onSaved: () => Promise<void>; onCancel: () => void }) {
  const [d, setD] = useState(initial);
  const [busy, setBusy] = useState(false);
  const match = matchOf(d);
  const live = useLiveCount(match);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setD((was) => ({ ...was, [k]: e.target.value }));
  const field = (k: keyof Draft, label: string, hint?: string, type = 'text') => (
    <div className="flex flex-col">
      <label htmlFor={`segment-${k}`} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={`segment-${k}`} className="mt-1 input" type={type} value={String(d[k] ?? '')} onChange={set(k)} aria-describedby={hint ? `segment-${k}-hint` : undefined} />
      {hint && (
        <span id={`segment-${k}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </span>
      )}
    </div>
  );
  const choice = (k: 'customer' | 'client', label: string) => (
    <div className="flex flex-col">
      <label htmlFor={`segment-${k}`} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select id={`segment-${k}`} className="mt-1 input" value={d[k]} onChange={set(k)}>
        <option value="">Either</option>
        <option value="yes">Yes</option>
        <option value="no">No</option>
      </select>
    </div>
  );
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const input = { name: d.name, match };
      const saved = d.id === null ? await createSegment(input) : await updateSegment(d.id, input);
      toast({ title: 'Segment saved', description: `${saved.name}: ${formatCount(saved.count)} active subscribers now.` });
      await onSaved();
    } catch (err) {
      reportFailure(err, 'The segment could not be saved. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="mb-8 space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm" aria-label={d.id === null ? 'New segment' : `Edit ${initial.name}`}>
      {field('name', 'Name')}
      <div className="grid gap-4 sm:grid-cols-3">
        {field('tagsAny', 'Has any of these tags', 'Separate tags with commas')}
        {field('tagsAll', 'Has all of these tags')}
        {field('tagsNone', 'Has none of these tags')}
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        {field('sources', 'Came from', "A form's slug, import:<name>, checkout, booking, site")}
        {field('subscribedAfter', 'Subscribed after', undefined, 'date')}
        {field('subscribedBefore', 'Subscribed before', undefined, 'date')}
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        {choice('customer', 'Customer (bought a product)')}
        {choice('client', 'Client (bought a package)')}
      </div>
      <p role="status" className="text-sm font-medium text-ink">
        {live.problem ?? (live.count === null ? 'Counting…' : `${formatCount(live.count)} active subscribers match now`)}
      </p>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary" disabled={busy || d.name.trim() === ''}>
          Save segment
        </button>
        <button type="button" className="btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export default function SegmentsAdmin() {
  const query = useQuery<Segment[]>(SEGMENTS_PATH, 'Failed to fetch segments');
  const [editing, setEditing] = useState<Draft | null>(null);
  const deletion = useConfirmDelete(async (s: Segment) => {
    try {
      await deleteSegment(s.id);
    } catch (err) {
      reportFailure(err, 'The segment could not be deleted. Please try again.');
      throw err;
    }
    toast({ title: 'Segment deleted', description: s.name });
    await query.refetch();
  });
  const pending = loadState(query, { loading: 'Loading segments', failed: 'Failed to fetch segments' });
  const rows = query.data ?? [];
  return (
    <>
      <PageHeader
        title="Segments"
        subtitle="Saved rules over the list: a broadcast can go to one. Counts are active subscribers, as of now."
        actions={
          <button type="button" className="btn-primary" onClick={() => setEditing({ ...EMPTY })}>
            New segment
          </button>
        }
      />
      {editing && (
        <Editor
          key={editing.id ?? 'new'}
          initial={editing}
          onCancel={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            await query.refetch();
          }}
        />
      )}
      {pending ??
        (rows.length === 0 ? (
          <EmptyState title="No segments yet" text="A segment picks subscribers by their tags, where they came from and when they subscribed." />
        ) : (
          <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
            {rows.map((s) => (
              <li key={s.id} className="flex items-center justify-between gap-4 px-5 py-4">
                <div>
                  <p className="font-semibold text-ink">{s.name}</p>
                  <p className="text-sm text-slate-600">{formatCount(s.count)} active subscribers</p>
                </div>
                <div className="flex gap-2">
                  <button type="button" className="btn-secondary" aria-label={`Edit segment ${s.name}`} onClick={() => setEditing(draftOf(s))}>
                    Edit
                  </button>
                  <button type="button" className="btn-secondary" aria-label={`Delete segment ${s.name}`} onClick={() => deletion.ask(s)}>
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        ))}
      <ConfirmDialog
        open={deletion.target !== null}
        title="Delete segment?"
        description={deletion.target && `“${deletion.target.name}” will be deleted. Issues already sent to it keep their recipients.`}
        confirmLabel={deletion.busy ? 'Deleting...' : 'Delete segment'}
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </>
  );
}
