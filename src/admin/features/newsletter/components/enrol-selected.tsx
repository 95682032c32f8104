// Adds the people selected in the list to a sequence (drip e-mails), whatever starts it.
import { useState } from 'react';
import { reportFailure, useQuery } from '#admin/lib/query.ts';
import { toast } from '#lib/toast.ts';
import { API } from '#shared/api-paths.ts';
import { formatCount } from '#shared/format.ts';
import type { SequenceSummaryDto } from '#shared/schemas/sequences.ts';
import { enrolSelection } from '#admin/features/newsletter/api/person.ts';

export function EnrolSelected({ ids, onDone }: { ids: number[]; onDone: () => void }) {
  const sequences = useQuery<Pick<SequenceSummaryDto, 'id' | 'name' | 'status'>[]>(API.sequences);
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  if (!sequences.data?.length) return null;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const sequence = sequences.data?.find((s) => String(s.id) === chosen);
    if (!sequence) return;
    setBusy(true);
    try {
      const { enrolled } = await enrolSelection(sequence.id, ids);
      toast({ title: 'Enrolled', description: `${formatCount(enrolled)} of ${formatCount(ids.length)} selected joined ${sequence.name} (only active subscribers not in it already join).` });
      setChosen('');
    } catch (err) {
      reportFailure(err, 'The selection could not be enrolled. Please try again.');
    } finally {
      setBusy(false);
      onDone();
    }
  };
  return (
    <form className="mb-4 flex flex-wrap items-end gap-2 rounded-2xl border border-slate-200 bg-brand-50 p-3" onSubmit={(e) => void submit(e)}>
      <div className="flex grow flex-col">
        <label htmlFor="enrol-selected" className="text-sm font-medium text-slate-800">
          Add the {formatCount(ids.length)} selected to a sequence
        </label>
        <select id="enrol-selected" className="mt-1 input" value={chosen} onChange={(e) => setChosen(e.target.value)}>
          <option value="">Choose a sequence</option>
          {sequences.data.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
              {s.status === 'paused' ? ' (paused)' : ''}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn-primary" disabled={busy || !chosen}>
        Enrol selected
      </button>
    </form>
  );
}
