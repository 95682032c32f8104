// 'Import WordPress': pick a WXR export (.xml), optionally asking for episodes' audio to be
// downloaded, and send it to the server. While the server imports, a progress bar shows the
// items done out of the total (read from the server, so it survives leaving the page and
// coming back); at the end, the counts and a link to the full report. The list is refetched and
// the input cleared either way.
import { useCallback, useEffect, useRef, useState } from 'react';
import { handleUnauthorized } from '#admin/lib/query.ts';
import { FileButton } from '#admin/ui/file-button.tsx';
import { ProgressBar } from '#admin/ui/progress.tsx';
import { api, errorMessage } from '#lib/api-client.ts';
import { toast } from '#lib/toast.ts';
import { API } from '#shared/api-paths.ts';
import type { ImportRunDto } from '#shared/schemas/blog-post.ts';
import { importWordPress } from '#admin/features/blog/api/posts.ts';

const MAX_BYTES = 100 * 1024 * 1024;
const POLL_MS = 1000;
const FAILED = { title: 'Import Failed', variant: 'destructive' as const };
const failure = (reason?: string) => ({ ...FAILED, description: `There was an error importing your WordPress posts${reason ? `. ${reason}` : ''}` });

/** The import's controls (for the page header) and its progress or last report (for below it). */
export function useWordPressImport(onImported: () => void) {
  const [busy, setBusy] = useState(false);
  const [downloadAudio, setDownloadAudio] = useState(false);
  const [run, setRun] = useState<ImportRunDto | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const poll = useCallback(async () => {
    try {
      const latest = await api<ImportRunDto | null>('GET', API.wordpressImport);
      setRun(latest);
      if (latest?.status === 'running') timer.current = setTimeout(() => void poll(), POLL_MS);
      return latest;
    } catch {
      return null;
    }
  }, []);

  // An import started earlier (maybe from another tab) is shown as it goes on.
  useEffect(() => {
    void poll();
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [poll]);

  // FileButton clears the input before this runs, so the same file can be picked again.
  const onPick = async (file: File) => {
    try {
      if (!file.name.toLowerCase().endsWith('.xml')) return toast(failure('Choose the .xml file WordPress exports (Tools → Export).'));
      if (file.size > MAX_BYTES) return toast(failure('The file is larger than 100 MB.'));
      setBusy(true);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void poll(), POLL_MS);
      const { imported, skipped, keptPrivate } = await importWordPress(file, downloadAudio);
      // One toast (a new one replaces the last): private posts kept as drafts are named in it.
      const kept = keptPrivate.length ? `. Kept as drafts, as they were not public on WordPress: ${keptPrivate.map((p) => `'${p.title}' (${p.reason})`).join(', ')}` : '';
      toast({ title: 'Import Successful', description: `Imported ${imported} posts successfully${skipped ? ` (${skipped} skipped)` : ''}${kept}` });
      onImported();
    } catch (err) {
      if (!handleUnauthorized(err)) toast(failure(errorMessage(err, '') || undefined));
    } finally {
      setBusy(false);
      void poll();
    }
  };

  const running = busy || run?.status === 'running';
  const controls = (
    <>
      <label className="inline-flex items-center gap-2 text-sm text-slate-600">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300" checked={downloadAudio} disabled={running} onChange={(e) => setDownloadAudio(e.target.checked)} />
        Download episode audio
      </label>
      <FileButton id="wordpress-import" label="Import WordPress" accept=".xml,text/xml,application/xml" disabled={running} onFile={(file) => void onPick(file)}>
        {running ? 'Importing...' : 'Import WordPress'}
      </FileButton>
    </>
  );

  const panel = run && (running || run.finishedAt) && (
    <section aria-label="WordPress import" className="mb-6 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm">
      {run.status === 'running' ? (
        <>
          <p className="font-medium text-ink">{run.total ? `Importing ${run.fileName ?? 'the export'}: ${run.done} of ${run.total} items` : `Reading ${run.fileName ?? 'the export'}...`}</p>
          <ProgressBar label="WordPress import progress" value={run.total ? run.done / run.total : 0} />
          <p className="text-xs text-slate-500">You can leave this page: the import goes on, and this shows how far it is when you come back.</p>
        </>
      ) : run.status === 'done' ? (
        <p>
          <span className="font-medium text-ink">Last import ({run.fileName}):</span> {run.imported} imported, {run.updated} updated, {run.skipped} skipped, {run.failed} failed.{' '}
          <a className="font-medium text-brand-700 underline" href={`${API.wordpressImport}/${run.id}/report`} download>
            Download the report
          </a>
        </p>
      ) : (
        <p className="text-red-700">
          Last import ({run.fileName}) failed: {run.error}
        </p>
      )}
    </section>
  );

  return { controls, panel };
}
