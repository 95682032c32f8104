// /admin/newsletter/issues/new and /admin/newsletter/issues/:id: a draft is written here (subject,
// preheader, body in the rich-text editor), tested, and sent after a confirmation that names
// the exact number of recipients (and, for a large send while the From domain's DNS check fails,
// a second one). 'Send by e-mail' on a post opens it as ?post={id}, filled from the post. Once
// sending, the screen shows its progress (refreshed every second, with the time left) with
// Pause, Resume, Cancel and 'Retry failed'.
import { API } from '#shared/api-paths.ts';
import { useEffect, useState, type FormEvent } from 'react';
import { RichTextEditor } from '#admin/editor/rich-text-editor.tsx';
import { useQuery } from '#admin/lib/query.ts';
import { Badge, PageHeader, StatCard, Switch, TextField } from '#admin/ui/controls.tsx';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { api, ApiError, errorMessage } from '#lib/api-client.ts';
import { apiFieldErrors, check, type FieldErrors } from '#lib/form.ts';
import { toast } from '#lib/toast.ts';
import { act, BroadcastInputSchema, BroadcastTestSchema, createIssue, sendTest, startSend, updateIssue, type Broadcast } from '#admin/features/broadcasts/api/broadcasts.ts';
import type { SegmentDto } from '#shared/schemas/audience.ts';
import { STATUS_TONE } from './issue-list.tsx';

function Report({ issue, onChange }: { issue: Broadcast; onChange: (b: Broadcast) => void }) {
  const [busy, setBusy] = useState(false);
  const run = async (action: 'pause' | 'resume' | 'cancel' | 'retry-failed', done: string) => {
    setBusy(true);
    try {
      onChange(await act(issue.id, action));
      toast({ title: done });
    } catch {
      // mutate() has said so.
    } finally {
      setBusy(false);
    }
  };
  const eta =
    issue.etaSeconds === null
      ? null
      : issue.etaSeconds < 60
        ? `${issue.etaSeconds} s`
        : issue.etaSeconds < 3600
          ? `${Math.ceil(issue.etaSeconds / 60)} min`
          : issue.etaSeconds < 48 * 3600
            ? `${Math.floor(issue.etaSeconds / 3600)} h ${Math.ceil((issue.etaSeconds % 3600) / 60)} min`
            : `${Math.round(issue.etaSeconds / 86_400)} days`;
  const progress = issue.total ? Math.round(((issue.sent + issue.failed + issue.bounced + issue.skipped) / issue.total) * 100) : 0;
  return (
    <section aria-labelledby="issue-report" className="space-y-6">
      <h2 id="issue-report" className="sr-only">
        Sending
      </h2>
      {issue.pauseReason && <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">{issue.pauseReason}</p>}
      <div className="grid gap-4 sm:grid-cols-3 lg:grid-cols-6">
        <StatCard label="Recipients" value={issue.total} />
        <StatCard label="Sent" value={issue.sent} />
        <StatCard label="Waiting" value={issue.pending} />
        <StatCard label="Failed" value={issue.failed} />
        <StatCard label="Bounced" value={issue.bounced} />
        <StatCard label="Unsubscribed since" value={issue.unsubscribedSince} detail={issue.skipped > 0 ? `${issue.skipped} before their turn: not sent` : undefined} />
      </div>
      {issue.status === 'sending' && (
        <div className="space-y-1">
          <div role="progressbar" aria-label="Sending progress" aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100} className="h-2 overflow-hidden rounded-full bg-slate-100">
            <div className="h-full bg-brand-600 transition-all" style={{ width: `${progress}%` }} />
          </div>
          <p className="text-sm text-slate-600">
            {progress}% done{eta && `, about ${eta} left`}
          </p>
          {issue.waitingForDailyLimit && (
            <p className="text-sm text-slate-600">
              Waiting for the daily limit: at most {issue.dailyLimit} messages go out in any 24 hours, so the rest goes as earlier messages stop counting. Sending goes on by itself.
            </p>
          )}
        </div>
      )}
      {issue.track && (
        <div className="grid gap-4 sm:grid-cols-3">
          <StatCard label="Opens (approximate)" value={issue.opens} detail="Anonymous; images blocked or fetched by a mail provider's proxy make this uncertain." />
          <StatCard label="Clicks (approximate)" value={issue.clicks} detail="Anonymous; counted without knowing who clicked." />
        </div>
      )}
      {issue.possiblyDuplicated > 0 && (
        <p className="text-sm text-slate-600">{issue.possiblyDuplicated} message(s) were being sent when the server stopped and went out again: those readers may have it twice.</p>
      )}
      <div className="flex flex-wrap gap-2">
        {issue.status === 'sending' && (
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => void run('pause', 'Sending paused')}>
            Pause
          </button>
        )}
        {issue.status === 'paused' && (
          <button type="button" className="btn-primary" disabled={busy} onClick={() => void run('resume', 'Sending resumed')}>
            Resume
          </button>
        )}
        {(issue.status === 'sending' || issue.status === 'paused') && (
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => void run('cancel', 'Sending cancelled')}>
            Cancel sending
          </button>
        )}
        {issue.failed > 0 && issue.status !== 'cancelled' && (
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => void run('retry-failed', 'Failed recipients queued again')}>
            Retry failed
          </button>
        )}
        {issue.startedAt && (
          <a href={`/newsletter/${issue.slug}`} target="_blank" rel="noopener" className="btn-secondary">
            View in the archive
          </a>
        )}
      </div>
    </section>
  );
}

export default function IssueEditor({ params }: { params: Record<string, string> }) {
  const id = params.id ? Number(params.id) : null;
  const loaded = useQuery<Broadcast>(id ? API.broadcast(id) : null, 'Failed to load the issue');
  const [issue, setIssue] = useState<Broadcast | null>(null);
  const [values, setValues] = useState({ subject: '', preheader: '', content: '', postId: null as number | null, subscribersOnly: false, track: false, segmentId: null as number | null });
  const segments = useQuery<Pick<SegmentDto, 'id' | 'name' | 'count'>[]>(API.segments);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [testTo, setTestTo] = useState('');
  const [confirm, setConfirm] = useState<number | null>(null);
  const [dnsWarning, setDnsWarning] = useState<string | null>(null);
  // 'Send by e-mail' on a post: a new issue starts from it.
  const [fromPost] = useState(() => (id ? null : Number(new URLSearchParams(window.location.search).get('post')) || null));
  const post = useQuery<{ id: number; title: string; excerpt: string | null; content: string }>(fromPost ? API.post(fromPost) : null, 'Failed to load the post');

  useEffect(() => {
    if (!loaded.data) return;
    setIssue(loaded.data);
    const d = loaded.data;
    setValues({ subject: d.subject, preheader: d.preheader ?? '', content: d.content, postId: d.postId, subscribersOnly: d.subscribersOnly, track: d.track, segmentId: d.segmentId });
  }, [loaded.data]);

  useEffect(() => {
    if (!post.data) return;
    const p = post.data;
    setValues((v) => ({ ...v, subject: p.title, preheader: (p.excerpt ?? '').slice(0, 200), content: p.content, postId: p.id }));
  }, [post.data]);

  // While it sends, the figures are asked for every second.
  const sendingId = issue?.status === 'sending' ? issue.id : null;
  useEffect(() => {
    if (sendingId === null) return;
    const timer = window.setInterval(() => {
      api<Broadcast>('GET', API.broadcast(sendingId)).then(setIssue, () => undefined);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [sendingId]);

  const save = async (): Promise<Broadcast | null> => {
    const checked = check(BroadcastInputSchema, { ...values, preheader: values.preheader || null });
    if (checked.errors) {
      setErrors(checked.errors);
      return null;
    }
    setErrors({});
    setBusy(true);
    try {
      const saved = issue ? await updateIssue(issue.id, checked.data, issue.version) : await createIssue(checked.data);
      setIssue(saved);
      // The address names the issue from now on (a reload opens it); the screen stays as it is.
      if (!issue) window.history.replaceState(null, '', `/admin/newsletter/issues/${saved.id}`);
      return saved;
    } catch (err) {
      // Changed in another tab since this one loaded it: said here, since no toast has said it.
      if (err instanceof ApiError && err.status === 412) toast({ title: 'Not saved', description: errorMessage(err, 'This issue was changed elsewhere.'), variant: 'destructive' });
      setErrors(apiFieldErrors(err));
      return null;
    } finally {
      setBusy(false);
    }
  };

  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    if (await save()) toast({ title: 'Draft saved' });
  };

  const test = async () => {
    const address = check(BroadcastTestSchema, { email: testTo });
    if (address.errors) {
      setErrors(address.errors);
      return;
    }
    const saved = await save();
    if (!saved) return;
    try {
      await sendTest(saved.id, address.data.email);
      toast({ title: 'Test sent', description: `A copy with [TEST] in the subject is on its way to ${testTo}.` });
    } catch (err) {
      setErrors(apiFieldErrors(err));
    }
  };

  const askToSend = async () => {
    const saved = await save();
    if (!saved) return;
    try {
      // The exact count of whoever the send reaches now: everyone active, or the segment's active subscribers.
      const audience = saved.segmentId === null ? API.broadcastAudience : `${API.broadcastAudience}?segmentId=${saved.segmentId}`;
      setConfirm((await api<{ count: number }>('GET', audience)).count);
    } catch {
      toast({ title: 'Error', description: 'Failed to count the subscribers. Please try again.', variant: 'destructive' });
    }
  };

  const send = async (confirmDns: boolean) => {
    if (!issue) return;
    setBusy(true);
    try {
      setIssue(await startSend(issue.id, confirmDns, issue.version));
      toast({ title: 'Sending started' });
      setDnsWarning(null);
    } catch (err) {
      const dns = apiFieldErrors(err).confirmDns;
      if (dns) setDnsWarning(dns);
      else toast({ title: 'Error', description: errorMessage(err, 'Failed to send. Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };

  const draft = !issue || issue.status === 'draft';
  return (
    <>
      <PageHeader
        title={issue ? issue.subject : 'New issue'}
        subtitle={issue ? undefined : 'Goes to every confirmed subscriber, or to a segment, when you send it'}
        actions={issue && <Badge tone={STATUS_TONE[issue.status]}>{issue.status}</Badge>}
      />
      {(id && loadState(loaded, { loading: 'Loading the issue', failed: 'Failed to load the issue' })) ||
        (draft ? (
          <form noValidate onSubmit={(e) => void onSave(e)} className="max-w-3xl space-y-5">
            <TextField id="issue-subject" label="Subject" value={values.subject} error={errors.subject} onChange={(e) => setValues({ ...values, subject: e.target.value })} />
            <TextField
              id="issue-preheader"
              label="Preheader (optional)"
              hint="The line inboxes show after the subject."
              value={values.preheader}
              error={errors.preheader}
              onChange={(e) => setValues({ ...values, preheader: e.target.value })}
            />
            <div className="flex flex-col">
              <label htmlFor="issue-audience" className="text-sm font-medium text-slate-800">
                Audience
              </label>
              <select
                id="issue-audience"
                aria-describedby="issue-audience-hint"
                className="mt-1 input"
                value={values.segmentId ?? ''}
                onChange={(e) => setValues({ ...values, segmentId: e.target.value ? Number(e.target.value) : null })}
              >
                <option value="">Everyone (every confirmed subscriber)</option>
                {segments.data?.map((s) => (
                  <option key={s.id} value={s.id}>
                    Segment: {s.name} ({s.count} now)
                  </option>
                ))}
              </select>
              <span id="issue-audience-hint" className="mt-1 text-xs text-slate-500">
                A segment is evaluated when sending starts: whoever matches it then gets the issue.
              </span>
            </div>
            <Switch
              label="Subscribers only"
              hint="Leave it out of the public archive, its feed and the sitemap; readers open it from their e-mail."
              checked={values.subscribersOnly}
              onChange={(v) => setValues({ ...values, subscribersOnly: v })}
            />
            <Switch
              label="Count opens and clicks"
              hint="Off unless you turn it on. Anonymous totals, never who opened or clicked; always approximate."
              checked={values.track}
              onChange={(v) => setValues({ ...values, track: v })}
            />
            <div>
              <p id="issue-content-label" className="mb-1 text-sm font-medium text-slate-700">
                Content
              </p>
              <RichTextEditor
                id="issue-content"
                value={values.content}
                onChange={(html) => setValues((v) => ({ ...v, content: html }))}
                labelledBy="issue-content-label"
                invalid={Boolean(errors.content)}
              />
              {errors.content && <p className="mt-1 text-sm text-red-700">{errors.content}</p>}
            </div>
            <div className="flex flex-wrap items-end gap-2 rounded-2xl border border-slate-200 bg-slate-50 p-4">
              <div className="min-w-60 flex-1">
                <TextField id="issue-test-to" label="Send a test to" type="email" value={testTo} error={errors.email} onChange={(e) => setTestTo(e.target.value)} />
              </div>
              <button type="button" className="btn-secondary" disabled={busy} onClick={() => void test()}>
                Send test
              </button>
            </div>
            <div className="flex gap-2">
              <button type="submit" className="btn-secondary" disabled={busy}>
                Save draft
              </button>
              {issue && (
                <a href={API.broadcastPreview(issue.id)} target="_blank" rel="noopener" className="btn-secondary">
                  Preview e-mail
                </a>
              )}
              <button type="button" className="btn-primary" disabled={busy} onClick={() => void askToSend()}>
                Send…
              </button>
            </div>
          </form>
        ) : (
          <Report issue={issue} onChange={setIssue} />
        ))}
      <ConfirmDialog
        open={confirm !== null}
        title="Send this issue?"
        description={
          confirm
            ? `It goes to ${confirm} confirmed subscriber${confirm === 1 ? '' : 's'}${values.segmentId === null ? '' : ' in the segment'} now, and cannot be unsent.`
            : values.segmentId === null
              ? 'There are no confirmed subscribers to send to yet.'
              : 'No confirmed subscriber is in this segment now.'
        }
        confirmLabel={`Send to ${confirm ?? 0}`}
        busy={busy || !confirm}
        onConfirm={() => void send(false)}
        onCancel={() => setConfirm(null)}
      />
      <ConfirmDialog
        open={dnsWarning !== null}
        title="Send despite the DNS check?"
        description={dnsWarning ?? ''}
        confirmLabel="Send anyway"
        busy={busy}
        onConfirm={() => void send(true)}
        onCancel={() => setDnsWarning(null)}
      />
    </>
  );
}
