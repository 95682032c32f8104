// /admin/newsletter/sequences: every sequence (drip e-mails) with its figures, and 'New sequence'.
import { useState } from 'react';
import { API } from '#shared/api-paths.ts';
import { useQuery } from '#admin/lib/query.ts';
import { Link } from '#admin/lib/link.tsx';
import { Badge, EmptyState, PageHeader } from '#admin/ui/controls.tsx';
import { FormDialog } from '#admin/ui/form-dialog.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { apiFieldErrors, check, type FieldErrors } from '#lib/form.ts';
import { createSequence, SequenceInputSchema, type SequenceSummary } from '#admin/features/sequences/api/sequences.ts';
import { EMPTY_SEQUENCE, SequenceFields, sequenceInput, TRIGGER_LABELS } from './sequence-form.tsx';

export default function SequenceList() {
  const list = useQuery<SequenceSummary[]>(API.sequences, 'Failed to load the sequences');
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(EMPTY_SEQUENCE);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const create = async () => {
    const checked = check(SequenceInputSchema, sequenceInput(values));
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    try {
      const made = await createSequence(checked.data);
      window.location.assign(`/admin/newsletter/sequences/${made.id}`);
    } catch (err) {
      setErrors(apiFieldErrors(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Sequences"
        subtitle="E-mails that go out by themselves: a welcome series, a follow-up after a call or a purchase"
        actions={
          <button type="button" className="btn-primary" onClick={() => setOpen(true)}>
            New sequence
          </button>
        }
      />
      {loadState(list, { loading: 'Loading sequences', failed: 'Failed to load the sequences' }) ??
        (list.data?.length === 0 ? (
          <EmptyState title="No sequences yet" text="Start with a welcome series: three e-mails over a week after someone confirms." />
        ) : (
          <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
            {(list.data ?? []).map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-4">
                <span>
                  <Link href={`/admin/newsletter/sequences/${s.id}`} className="font-semibold text-ink hover:text-brand-700">
                    {s.name}
                  </Link>
                  <span className="block text-sm text-slate-600">
                    {TRIGGER_LABELS[s.trigger.type]}
                    {s.trigger.value ? ` (${s.trigger.value})` : ''} · {s.steps} step{s.steps === 1 ? '' : 's'} · {s.enrolled} enrolled, {s.active} in it, {s.completed} completed, {s.sent} sent
                  </span>
                </span>
                <Badge tone={s.status === 'active' ? 'green' : 'amber'}>{s.status}</Badge>
              </li>
            ))}
          </ul>
        ))}
      <FormDialog
        open={open}
        onClose={() => setOpen(false)}
        title="New sequence"
        description="It stays paused until you activate it."
        submitLabel="Create sequence"
        busy={busy}
        onSubmit={() => void create()}
      >
        <SequenceFields values={values} errors={errors} onChange={setValues} />
      </FormDialog>
    </>
  );
}
