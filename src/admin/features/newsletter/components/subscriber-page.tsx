// /admin/newsletter/subscribers/:id: one person: status, tags (added and removed here), source,
// consent, and their history (subscribed, confirmed, tags, e-mails, purchases, bookings).
import { useState, type FormEvent } from 'react';
import { Link } from '#admin/lib/link.tsx';
import { mutate, reportFailure, useQuery } from '#admin/lib/query.ts';
import { navigate } from '#admin/lib/router.ts';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { toast } from '#lib/toast.ts';
import { API } from '#shared/api-paths.ts';
import { Badge, PageHeader } from '#admin/ui/controls.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { formatLongDate } from '#shared/format.ts';
import { STATUS_LABEL } from '#admin/features/newsletter/api/subscribers.ts';
import { addTags, HISTORY_LABEL, personPath, removeTag, tagNames, type Person } from '#admin/features/newsletter/api/person.ts';

const SEQUENCE_STATUS = { active: 'In it', completed: 'Finished', exited: 'Left' } as const;
const STATUS_TONE = { active: 'green', pending: 'amber', unsubscribed: 'grey', bounced: 'red' } as const;
const when = (iso: string) => `${formatLongDate(iso)}, ${new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}`;

function Tags({ person, onChange }: { person: Person; onChange: () => Promise<void> }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (write: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await write();
      setText('');
    } catch (err) {
      reportFailure(err, 'The tags could not be changed. Please try again.');
    } finally {
      setBusy(false);
      await onChange();
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const names = tagNames(text);
    if (names.length > 0) void run(() => addTags(person.id, names));
  };
  return (
    <section aria-labelledby="tags-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="tags-heading" className="text-base font-semibold text-ink">
        Tags
      </h2>
      {person.tags.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No tags yet.</p>
      ) : (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Tags">
          {person.tags.map((t) => (
            <li key={t} className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-3 text-sm text-brand-700 ring-1 ring-brand-600/20">
              {t}
              <button
                type="button"
                aria-label={`Remove tag ${t}`}
                disabled={busy}
                onClick={() => void run(() => removeTag(person.id, t))}
                className="rounded-full px-1.5 text-brand-700 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-50"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="mt-4 flex flex-wrap items-end gap-2" onSubmit={submit}>
        <div className="flex grow flex-col">
          <label htmlFor="add-tags" className="text-sm font-medium text-slate-800">
            Add tags (separate with commas)
          </label>
          <input id="add-tags" className="mt-1 input" value={text} maxLength={1000} onChange={(e) => setText(e.target.value)} />
        </div>
        <button type="submit" className="btn-primary" disabled={busy || tagNames(text).length === 0}>
          Add tags
        </button>
      </form>
    </section>
  );
}

/** The owner's own copy and erasure of a person's data (for requests that come by other ways than the site's form). */
function PrivacyActions({ email }: { email: string }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const erase = async () => {
    setBusy(true);
    try {
      await mutate('POST', API.privacyErase, { email }, { title: 'Erasure failed', description: 'Nothing was erased. Please try again.' });
      toast({ title: 'Erased', description: 'What the site held about this address is gone; the address is kept only as a hash so no import adds it again.' });
      navigate('/admin/newsletter');
    } catch {
      // mutate has told the owner; nothing was erased.
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <div className="flex flex-wrap gap-2">
      <a className="btn-secondary" href={API.privacyExport(email)} download>
        Download their data
      </a>
      <button type="button" className="btn-secondary text-red-700" onClick={() => setAsking(true)}>
        Erase their data
      </button>
      <ConfirmDialog
        open={asking}
        title="Erase this person's data?"
        description="Their subscription, account, comments' name and address, consent records and future bookings (cancelled, with an e-mail) go; orders keep amounts and dates without the address. This cannot be undone."
        confirmLabel="Erase"
        busy={busy}
        onConfirm={() => void erase()}
        onCancel={() => setAsking(false)}
      />
    </div>
  );
}

export default function SubscriberPage({ params }: { params: Record<string, string> }) {
  const query = useQuery<Person>(personPath(params.id ?? ''), 'Failed to fetch the subscriber');
  const person = query.data;
  const pending = loadState(query, { loading: 'Loading subscriber', failed: 'Failed to fetch the subscriber' });
  return (
    <>
      <p className="mb-4 text-sm">
        <Link href="/admin/newsletter" className="font-semibold text-brand-700 hover:underline">
          ← All subscribers
        </Link>
      </p>
      {pending && !person ? (
        pending
      ) : person ? (
        <>
          <PageHeader title={person.email} subtitle={person.name ?? undefined} actions={<PrivacyActions email={person.email} />} />
          <dl className="mb-6 grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 text-sm shadow-sm sm:grid-cols-4">
            <div>
              <dt className="text-slate-600">Status</dt>
              <dd className="mt-1">
                <Badge tone={STATUS_TONE[person.status]}>{STATUS_LABEL[person.status]}</Badge>
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Source</dt>
              <dd className="mt-1 font-medium text-ink">{person.source ?? 'Not known'}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Subscribed</dt>
              <dd className="mt-1 font-medium text-ink">{formatLongDate(person.subscribedAt)}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Confirmed</dt>
              <dd className="mt-1 font-medium text-ink">{person.confirmedAt ? formatLongDate(person.confirmedAt) : 'Not yet'}</dd>
            </div>
          </dl>
          <div className="grid gap-6 lg:grid-cols-2">
            <div className="space-y-6">
              <Tags person={person} onChange={query.refetch} />
              <section aria-labelledby="consent-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
                <h2 id="consent-heading" className="text-base font-semibold text-ink">
                  Consent
                </h2>
                {person.consent.length === 0 ? (
                  <p className="mt-2 text-sm text-slate-600">No consent records.</p>
                ) : (
                  <ul className="mt-3 space-y-2 text-sm text-slate-700">
                    {person.consent.map((c, i) => (
                      <li key={i} className="space-y-0.5">
                        <p className="font-medium text-ink">{c.form ? `Form ${c.form}` : 'The newsletter form'}</p>
                        {c.page && <p className="break-all text-slate-600">On {c.page}</p>}
                        <p className="text-slate-600">
                          Shown: “{c.wording.heading}” {c.wording.text && `${c.wording.text} `}[{c.wording.button}]
                        </p>
                        <p className="text-xs text-slate-500">
                          Asked {when(c.askedAt)}; {c.confirmedAt ? `confirmed ${when(c.confirmedAt)}` : 'not confirmed'}
                        </p>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </div>
            <section aria-labelledby="sequences-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
              <h2 id="sequences-heading" className="text-base font-semibold text-ink">
                Sequences
              </h2>
              {person.sequences.length === 0 ? (
                <p className="mt-2 text-sm text-slate-600">Not in any sequence.</p>
              ) : (
                <ul className="mt-3 space-y-3 text-sm text-slate-700">
                  {person.sequences.map((q) => (
                    <li key={`${q.id}-${q.enrolledAt}`}>
                      <p>
                        <span className="font-medium text-ink">{q.name}</span> <Badge tone={q.status === 'active' ? 'green' : 'grey'}>{SEQUENCE_STATUS[q.status]}</Badge>
                      </p>
                      <p className="text-xs text-slate-500">
                        Enrolled {when(q.enrolledAt)}
                        {q.endedAt && `; ${q.status === 'exited' ? 'left' : 'finished'} ${when(q.endedAt)}`}
                        {q.exitReason && ` (${q.exitReason})`}
                      </p>
                      {q.sent.length > 0 && (
                        <ol className="mt-1 list-decimal pl-5">
                          {q.sent.map((m, i) => (
                            <li key={i}>
                              {m.subject}
                              {m.sentAt && <span className="text-xs text-slate-500"> · {when(m.sentAt)}</span>}
                            </li>
                          ))}
                        </ol>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="history-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
              <h2 id="history-heading" className="text-base font-semibold text-ink">
                History
              </h2>
              <ol className="mt-3 space-y-3 border-l border-slate-200 pl-4 text-sm" aria-label="History">
                {person.history.map((h, i) => (
                  <li key={i}>
                    <p className="font-medium text-ink">
                      {HISTORY_LABEL[h.what]}
                      {h.detail && <span className="font-normal text-slate-700">: {h.detail}</span>}
                    </p>
                    <time dateTime={h.at} className="text-xs text-slate-500">
                      {when(h.at)}
                    </time>
                  </li>
                ))}
              </ol>
            </section>
          </div>
        </>
      ) : null}
    </>
  );
}
