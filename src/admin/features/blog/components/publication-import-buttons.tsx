// 'Import from Substack' (the export's .zip) and 'Import from Ghost' (the export's .json, with the
// old site's address for its images): each sends the file and says in a toast what came over,
// which posts were kept as drafts, and how many subscribers the subscriber import brings in.
import { useState } from 'react';
import { handleUnauthorized } from '#admin/lib/query.ts';
import { FileButton } from '#admin/ui/file-button.tsx';
import { errorMessage } from '#lib/api-client.ts';
import { toast } from '#lib/toast.ts';
import type { PublicationImportResultDto } from '#shared/schemas/publication-import.ts';
import { importGhost, importSubstack } from '#admin/features/blog/api/posts.ts';

const SOURCES = {
  substack: { name: 'Substack', ext: '.zip', max: 100, hint: 'Choose the .zip Substack exports (Settings → Exports).' },
  ghost: { name: 'Ghost', ext: '.json', max: 50, hint: 'Choose the .json Ghost exports (Settings → Advanced → Import/Export).' },
} as const;

type Source = keyof typeof SOURCES;

const failure = (source: Source, reason?: string) => ({
  title: 'Import Failed',
  variant: 'destructive' as const,
  description: `There was an error importing your ${SOURCES[source].name} posts${reason ? `. ${reason}` : ''}`,
});

function summary({ imported, skipped, failed, keptAsDrafts, subscribers }: PublicationImportResultDto): string {
  const counts = [skipped && `${skipped} skipped`, failed && `${failed} failed`].filter(Boolean).join(', ');
  const kept = keptAsDrafts.length ? `. Kept as drafts: ${keptAsDrafts.map((k) => `'${k.title}' (${k.reason})`).join(', ')}` : '';
  const list = subscribers ? `. The ${subscribers.rows} subscribers of ${subscribers.file} are being imported (consent as Substack had it): see Newsletter` : '';
  return `Imported ${imported} posts and episodes successfully${counts ? ` (${counts})` : ''}${kept}${list}`;
}

/** The two pickers, for the blog page's header; `onImported` refetches the list. */
export function PublicationImportButtons({ onImported }: { onImported: () => void }) {
  const [busy, setBusy] = useState<Source | null>(null);
  const [ghostSite, setGhostSite] = useState('');

  const onPick = async (source: Source, file: File) => {
    const spec = SOURCES[source];
    try {
      if (!file.name.toLowerCase().endsWith(spec.ext)) return toast(failure(source, spec.hint));
      if (file.size > spec.max * 1024 * 1024) return toast(failure(source, `The file is larger than ${spec.max} MB.`));
      setBusy(source);
      const result = source === 'substack' ? await importSubstack(file) : await importGhost(file, ghostSite);
      toast({ title: 'Import Successful', description: summary(result) });
      onImported();
    } catch (err) {
      if (!handleUnauthorized(err)) toast(failure(source, errorMessage(err, '') || undefined));
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <FileButton id="substack-import" label="Import from Substack" accept=".zip,application/zip" disabled={busy !== null} onFile={(file) => void onPick('substack', file)}>
        {busy === 'substack' ? 'Importing...' : 'Import from Substack'}
      </FileButton>
      <label className="inline-flex items-center gap-2 text-sm text-slate-600">
        Old Ghost site address
        <input
          type="url"
          className="w-44 rounded-lg border border-slate-300 px-2 py-1 text-sm"
          placeholder="https://my.ghost.io"
          value={ghostSite}
          disabled={busy !== null}
          onChange={(e) => setGhostSite(e.target.value)}
        />
      </label>
      <FileButton id="ghost-import" label="Import from Ghost" accept=".json,application/json" disabled={busy !== null} onFile={(file) => void onPick('ghost', file)}>
        {busy === 'ghost' ? 'Importing...' : 'Import from Ghost'}
      </FileButton>
    </>
  );
}
