// 'Import subscribers': pick a CSV (Kit, Mailchimp, Substack, Ghost, Beehiiv, or any with an
// e-mail column) and optional tags; the server previews it first (the columns it found, and how
// many rows are new, already here, to be suppressed or refused, with their lines), then imports
// it in the background while a progress bar shows how far it is. No e-mail is sent.
import { useEffect, useRef, useState } from 'react';
import { handleUnauthorized } from '#admin/lib/query.ts';
import { TextField } from '#admin/ui/controls.tsx';
import { ProgressBar } from '#admin/ui/progress.tsx';
import { errorMessage } from '#lib/api-client.ts';
import { formatCount } from '#shared/format.ts';
import { getImport, MAX_IMPORT_BYTES, previewImport, runImport, type SubscriberImport } from '#admin/features/newsletter/api/subscriber-import.ts';

const POLL_MS = 500;
const FIELD_LABEL: Record<string, string> = {
  email: 'E-mail',
  name: 'Name',
  firstName: 'First name',
  lastName: 'Last name',
  status: 'Status',
  subscribedAt: 'Subscribed on',
  tags: 'Tags',
  unsubscribedAt: 'Unsubscribed on',
  cleanedAt: 'Cleaned on',
  subscribedToEmails: 'Subscribed to e-mails',
  deletedAt: 'Deleted on',
  emailDisabled: 'E-mail disabled',
};
const FORMAT_LABEL: Record<string, string> = { kit: 'Kit', mailchimp: 'Mailchimp', substack: 'Substack', ghost: 'Ghost', beehiiv: 'Beehiiv' };

function Counts({ run, preview }: { run: SubscriberImport; preview: boolean }) {
  const lines = run.invalid.slice(0, 5).map((r) => `line ${r.line}: ${r.reason}`);
  return (
    <ul className="mt-2 grid gap-1 sm:grid-cols-2">
      <li>
        {preview ? 'New' : 'Added'}: <strong>{formatCount(run.added)}</strong>
      </li>
      <li>
        Already here: <strong>{formatCount(run.updated + run.unchanged)}</strong>
        {run.updated > 0 && ` (${formatCount(run.updated)} ${preview ? 'to be updated' : 'updated'})`}
      </li>
      <li>
        {preview ? 'To be suppressed' : 'Suppressed'} (unsubscribed or bounced, not mailed): <strong>{formatCount(run.suppressed)}</strong>
      </li>
      <li>
        Invalid: <strong>{formatCount(run.invalidCount)}</strong>
        {lines.length > 0 && <span className="block text-xs text-slate-600">{lines.join('; ')}</span>}
      </li>
    </ul>
  );
}

/** The import panel, opened from the page header; `onImported` refreshes the list. */
export function SubscriberImportPanel({ onImported, onClose }: { onImported: () => void; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [tags, setTags] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [run, setRun] = useState<SubscriberImport | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const follow = (id: number, done?: () => void) => {
    const tick = async () => {
      try {
        const latest = await getImport(id);
        setRun(latest);
        if (latest.status === 'running') timer.current = setTimeout(() => void tick(), POLL_MS);
        else done?.();
      } catch (err) {
        if (!handleUnauthorized(err)) setError(errorMessage(err, 'The import could not be read. Please try again.'));
      }
    };
    void tick();
  };

  const preview = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!file) return setError('Choose a CSV file of subscribers');
    if (file.size > MAX_IMPORT_BYTES) return setError('The file is too large: the limit is 20 MB');
    setBusy(true);
    setRun(null);
    try {
      follow((await previewImport(file, tags)).id);
    } catch (err) {
      if (!handleUnauthorized(err)) setError(errorMessage(err, 'The file could not be read. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  const start = async () => {
    if (!run) return;
    setError(null);
    try {
      follow((await runImport(run.id)).id, onImported);
    } catch (err) {
      if (!handleUnauthorized(err)) setError(errorMessage(err, 'The import could not be started. Please try again.'));
    }
  };

  const previewing = run?.dryRun === true;
  const mapping = run ? Object.entries(run.mapping) : [];
  return (
    <section aria-labelledby="subscriber-import-title" className="mb-8 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id="subscriber-import-title" className="text-lg font-semibold text-ink">
            Import subscribers
          </h2>
          <p className="text-slate-600">
            A CSV exported from Kit, Mailchimp, Substack, Ghost or Beehiiv, or any CSV with an e-mail column (up to 20 MB). People keep the consent they gave there: only those subscribed there are
            subscribed here, and nobody is e-mailed by the import.
          </p>
        </div>
        <button type="button" className="btn-secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <form className="mt-4 grid gap-4 sm:grid-cols-2" onSubmit={(e) => void preview(e)} noValidate>
        <div>
          <label htmlFor="subscriber-import-file" className="mb-1 block text-sm font-medium text-ink">
            CSV file
          </label>
          <input
            id="subscriber-import-file"
            type="file"
            accept=".csv,text/csv"
            className="block w-full text-sm"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'subscriber-import-error' : undefined}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setRun(null);
            }}
          />
        </div>
        <TextField id="subscriber-import-tags" label="Tags for everyone in the file (optional)" hint="Separated by commas" value={tags} onChange={(e) => setTags(e.target.value)} />
        <div className="sm:col-span-2">
          <button type="submit" className="btn-primary" disabled={busy || run?.status === 'running'}>
            {busy ? 'Uploading...' : 'Preview import'}
          </button>
        </div>
      </form>
      {error && (
        <p id="subscriber-import-error" role="alert" className="mt-3 text-red-700">
          {error}
        </p>
      )}
      {run && (
        <div className="mt-4 border-t border-slate-200 pt-4" role="status">
          {run.status === 'running' ? (
            <>
              <p className="font-medium text-ink">{previewing ? `Reading ${run.fileName}...` : `Importing ${run.fileName}: ${formatCount(run.total)} rows so far`}</p>
              <ProgressBar label={previewing ? 'Preview progress' : 'Import progress'} value={run.progress / 100} />
            </>
          ) : run.status === 'failed' ? (
            <p className="text-red-700">The import failed: {run.error}</p>
          ) : (
            <>
              <p className="font-medium text-ink">
                {previewing ? 'Preview' : 'Imported'}: {run.fileName}
                {run.format ? ` (a ${FORMAT_LABEL[run.format]} export)` : ''}, {formatCount(run.total)} rows
              </p>
              <p className="mt-1 text-slate-600">
                Columns found: {mapping.map(([field, column]) => `${FIELD_LABEL[field] ?? field} ← “${column}”`).join(', ')}
                {run.tags.length > 0 && `. Tags added to everyone: ${run.tags.join(', ')}`}
              </p>
              <Counts run={run} preview={previewing} />
              {previewing && (
                <button type="button" className="mt-4 btn-primary" onClick={() => void start()}>
                  Import {formatCount(run.total - run.invalidCount)} rows
                </button>
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}
