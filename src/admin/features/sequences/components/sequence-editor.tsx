// /admin/newsletter/sequences/:id: one sequence: its report, Activate / Pause, its settings, its
// steps (each with its own figures; edit, delete, add at the end) and enrolling people by hand.
import { useEffect, useState } from 'react';
import { API } from '#shared/api-paths.ts';
import { RichTextEditor } from '#admin/editor/rich-text-editor.tsx';
import { useQuery } from '#admin/lib/query.ts';
import { navigate } from '#admin/lib/router.ts';
import { Badge, PageHeader, StatCard, TextField } from '#admin/ui/controls.tsx';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { FormDialog } from '#admin/ui/form-dialog.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { apiFieldErrors, check, type FieldErrors } from '#lib/form.ts';
import { toast } from '#lib/toast.ts';
import {
  addStep,
  DELAY_UNITS,
  deleteSequence,
  deleteStep,
  enrol,
  type SegmentChoice,
  SequenceInputSchema,
  setRunning,
  StepInputSchema,
  updateSequence,
  updateStep,
  type Sequence,
  type SequenceStep,
} from '#admin/features/sequences/api/sequences.ts';
import type { DelayUnit, SendingWindow } from '#shared/schemas/sequences.ts';
import { siteTimeZone } from '#admin/lib/site-time.ts';
import { describeWindow, WindowFields } from './sending-window.tsx';
import { SequenceFields, sequenceInput, TRIGGER_LABELS, type SequenceValues } from './sequence-form.tsx';

interface StepValues {
  subject: string;
  preheader: string;
  content: string;
  amount: string;
  unit: DelayUnit;
  window: SendingWindow | null;
}

const EMPTY_STEP: StepValues = { subject: '', preheader: '', content: '', amount: '1', unit: 'days', window: null };

const stepInput = (v: StepValues) => ({ subject: v.subject, preheader: v.preheader || null, content: v.content, delay: { amount: Number(v.amount), unit: v.unit }, window: v.window });

function StepDialog({ sequenceId, step, first, onClose, onSaved }: { sequenceId: number; step: SequenceStep | null; first: boolean; onClose: () => void; onSaved: () => void }) {
  const [values, setValues] = useState<StepValues>(() =>
    step
      ? { subject: step.subject, preheader: step.preheader ?? '', content: step.content, amount: String(step.delay.amount), unit: step.delay.unit, window: step.window }
      : { ...EMPTY_STEP, amount: first ? '0' : '1' },
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const checked = check(StepInputSchema, stepInput(values));
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    try {
      if (step) await updateStep(sequenceId, step.id, checked.data);
      else await addStep(sequenceId, checked.data);
      toast({ title: step ? 'Step saved' : 'Step added' });
      onSaved();
    } catch (err) {
      setErrors(apiFieldErrors(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open
      onClose={onClose}
      title={step ? 'Edit step' : 'Add a step'}
      description={step ? 'Only people who have not had this step yet get the new version.' : 'It goes at the end, to everyone still in the sequence; those who already finished it do not get it.'}
      submitLabel={step ? 'Save step' : 'Add step'}
      busy={busy}
      onSubmit={() => void save()}
    >
      <TextField id="step-subject" label="Subject" value={values.subject} error={errors.subject} onChange={(e) => setValues({ ...values, subject: e.target.value })} />
      <TextField id="step-preheader" label="Preheader (optional)" value={values.preheader} error={errors.preheader} onChange={(e) => setValues({ ...values, preheader: e.target.value })} />
      <div className="flex gap-3">
        <div className="w-32">
          <TextField
            id="step-delay"
            label="Wait"
            type="number"
            min={0}
            hint={first ? 'After the trigger.' : 'After the previous step.'}
            value={values.amount}
            error={errors.delay}
            onChange={(e) => setValues({ ...values, amount: e.target.value })}
          />
        </div>
        <div>
          <label htmlFor="step-delay-unit" className="label">
            Unit
          </label>
          <select id="step-delay-unit" className="input" value={values.unit} onChange={(e) => setValues({ ...values, unit: e.target.value as DelayUnit })}>
            {DELAY_UNITS.map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </select>
        </div>
      </div>
      <WindowFields value={values.window} zone={siteTimeZone()} error={errors.window} onChange={(window) => setValues({ ...values, window })} />
      <div>
        <p id="step-content-label" className="mb-1 text-sm font-medium text-slate-700">
          Content
        </p>
        <RichTextEditor id="step-content" value={values.content} onChange={(html) => setValues((v) => ({ ...v, content: html }))} labelledBy="step-content-label" invalid={Boolean(errors.content)} />
        <p className="mt-1 text-xs text-slate-500">Merge tags as in Kit: {'{{ subscriber.first_name | default: "friend" }}'}</p>
        {errors.content && <p className="mt-1 text-sm text-red-700">{errors.content}</p>}
      </div>
    </FormDialog>
  );
}

export default function SequenceEditor({ params }: { params: Record<string, string> }) {
  const id = Number(params.id);
  const loaded = useQuery<Sequence>(API.sequence(id), 'Failed to load the sequence');
  const [settings, setSettings] = useState<SequenceValues | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<SequenceStep | 'new' | null>(null);
  const [removing, setRemoving] = useState<SequenceStep | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [enrolEmails, setEnrolEmails] = useState('');
  const [enrolSegment, setEnrolSegment] = useState('');
  const segments = useQuery<SegmentChoice[]>(API.segments, 'Failed to fetch segments');
  const s = loaded.data;

  useEffect(() => {
    if (!s) return;
    setSettings({
      name: s.name,
      triggerType: s.trigger.type,
      triggerValue: s.trigger.value ?? '',
      exitTags: s.exitTags.join(', '),
      exitOnPurchase: s.exitOnPurchase,
      exitOnBooking: s.exitOnBooking,
      allowReentry: s.allowReentry,
    });
  }, [s]);

  /** Does `work`, then says `done` (unless the work says what happened itself) and reads the sequence again. */
  const run = async (work: () => Promise<unknown>, done: string | null) => {
    setBusy(true);
    try {
      setErrors({});
      await work();
      if (done) toast({ title: done });
      await loaded.refetch();
    } catch (err) {
      setErrors(apiFieldErrors(err));
    } finally {
      setBusy(false);
    }
  };

  const saveSettings = () => {
    if (!settings) return;
    const checked = check(SequenceInputSchema, sequenceInput(settings));
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    void run(() => updateSequence(id, checked.data), 'Sequence saved');
  };

  const enrolByHand = () => {
    const emails = enrolEmails
      .split(/[\s,;]+/)
      .map((e) => e.trim())
      .filter(Boolean);
    const who = enrolSegment ? { segmentId: Number(enrolSegment) } : { emails };
    void run(async () => {
      const { enrolled } = await enrol(id, who);
      toast({ title: `${enrolled} enrolled`, description: 'Only active subscribers not in it already are enrolled.' });
      setEnrolEmails('');
      setEnrolSegment('');
    }, null);
  };

  return (
    <>
      <PageHeader
        title={s?.name ?? 'Sequence'}
        subtitle={s ? `${TRIGGER_LABELS[s.trigger.type]}${s.trigger.value ? ` (${s.trigger.value})` : ''}` : undefined}
        actions={
          s && (
            <span className="flex items-center gap-2">
              <Badge tone={s.status === 'active' ? 'green' : 'amber'}>{s.status}</Badge>
              <button
                type="button"
                className={s.status === 'active' ? 'btn-secondary' : 'btn-primary'}
                disabled={busy}
                onClick={() => void run(() => setRunning(id, s.status !== 'active'), s.status === 'active' ? 'Paused' : 'Activated')}
              >
                {s.status === 'active' ? 'Pause' : 'Activate'}
              </button>
            </span>
          )
        }
      />
      {loadState(loaded, { loading: 'Loading the sequence', failed: 'Failed to load the sequence' }) ??
        (s && (
          <div className="space-y-8">
            <section aria-label="Report" className="grid gap-4 sm:grid-cols-3 lg:grid-cols-6">
              <StatCard label="Enrolled" value={s.enrolled} />
              <StatCard label="In it now" value={s.active} />
              <StatCard label="Completed" value={s.completed} />
              <StatCard label="Exited" value={s.exited} />
              <StatCard
                label="Sent"
                value={s.sent}
                detail={
                  [s.failed ? `${s.failed} failed` : '', s.possiblyDuplicated ? `${s.possiblyDuplicated} may have gone twice (in flight when the server stopped)` : ''].filter(Boolean).join(' · ') ||
                  undefined
                }
              />
              <StatCard label="Unsubscribed after" value={s.unsubscribedAfter} />
            </section>

            <section aria-labelledby="steps-heading" className="space-y-3">
              <div className="flex items-center justify-between">
                <h2 id="steps-heading" className="text-lg font-semibold text-ink">
                  Steps
                </h2>
                <button type="button" className="btn-primary" onClick={() => setEditing('new')}>
                  Add step
                </button>
              </div>
              {s.steps.length === 0 ? (
                <p className="text-sm text-slate-600">No steps yet.</p>
              ) : (
                <ol className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
                  {s.steps.map((step, i) => (
                    <li key={step.id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-4">
                      <span>
                        <span className="font-semibold text-ink">
                          {i + 1}. {step.subject}
                        </span>
                        <span className="block text-sm text-slate-600">
                          {step.delay.amount} {step.delay.unit} after {i === 0 ? 'the trigger' : 'the previous step'}
                          {step.window ? ` · ${describeWindow(step.window, siteTimeZone())}` : ''} · {step.sent} sent
                          {step.failed ? `, ${step.failed} failed` : ''} · {step.unsubscribedAfter} unsubscribed after
                        </span>
                      </span>
                      <span className="flex gap-2">
                        <button type="button" className="btn-secondary" aria-label={`Edit step ${i + 1}`} onClick={() => setEditing(step)}>
                          Edit
                        </button>
                        <button type="button" className="btn-secondary" aria-label={`Delete step ${i + 1}`} onClick={() => setRemoving(step)}>
                          Delete
                        </button>
                      </span>
                    </li>
                  ))}
                </ol>
              )}
            </section>

            <section aria-labelledby="enrol-heading" className="max-w-3xl space-y-3">
              <h2 id="enrol-heading" className="text-lg font-semibold text-ink">
                Add people by hand
              </h2>
              <div className="flex flex-wrap items-end gap-2">
                <div className="min-w-60 flex-1">
                  <TextField
                    id="enrol-emails"
                    label="Subscribers' addresses"
                    hint="Separated by commas or new lines. Imported subscribers join only this way."
                    value={enrolEmails}
                    error={errors.emails ?? errors.subscriberIds ?? errors.segmentId}
                    disabled={Boolean(enrolSegment)}
                    onChange={(e) => setEnrolEmails(e.target.value)}
                  />
                </div>
                <div className="min-w-48">
                  <label htmlFor="enrol-segment" className="block text-sm font-medium text-ink">
                    Or everyone in a segment
                  </label>
                  <select id="enrol-segment" className="mt-1 input" value={enrolSegment} onChange={(e) => setEnrolSegment(e.target.value)}>
                    <option value="">No segment</option>
                    {(segments.data ?? []).map((g) => (
                      <option key={g.id} value={g.id}>
                        {g.name} ({g.count})
                      </option>
                    ))}
                  </select>
                </div>
                <button type="button" className="btn-secondary" disabled={busy || (!enrolEmails.trim() && !enrolSegment)} onClick={enrolByHand}>
                  Enrol
                </button>
              </div>
            </section>

            {settings && (
              <section aria-labelledby="settings-heading" className="max-w-3xl space-y-5">
                <h2 id="settings-heading" className="text-lg font-semibold text-ink">
                  Settings
                </h2>
                <SequenceFields values={settings} errors={errors} onChange={setSettings} />
                <span className="flex flex-wrap gap-2">
                  <button type="button" className="btn-secondary" disabled={busy} onClick={saveSettings}>
                    Save settings
                  </button>
                  <button type="button" className="btn-secondary text-red-700" disabled={busy} onClick={() => setDeleting(true)}>
                    Delete sequence
                  </button>
                </span>
              </section>
            )}
          </div>
        ))}
      {editing && s && (
        <StepDialog
          sequenceId={id}
          step={editing === 'new' ? null : editing}
          first={editing === 'new' ? s.steps.length === 0 : s.steps[0]?.id === editing.id}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void loaded.refetch();
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Delete this step?"
        description="People who have not reached it yet skip it; its figures stay in the report."
        confirmLabel="Delete step"
        busy={busy}
        onConfirm={() => {
          const step = removing;
          setRemoving(null);
          if (step) void run(() => deleteStep(id, step.id), 'Step deleted');
        }}
        onCancel={() => setRemoving(null)}
      />
      <ConfirmDialog
        open={deleting}
        title="Delete this sequence?"
        description="Its steps, who is in it and its report are deleted; nobody gets another of its e-mails."
        confirmLabel="Delete sequence"
        busy={busy}
        onConfirm={() => {
          setDeleting(false);
          setBusy(true);
          deleteSequence(id)
            .then(() => {
              toast({ title: 'Sequence deleted' });
              navigate('/admin/newsletter/sequences');
            })
            .catch(() => setBusy(false));
        }}
        onCancel={() => setDeleting(false)}
      />
    </>
  );
}
