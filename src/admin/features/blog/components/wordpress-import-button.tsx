// 'Import WordPress': pick a WXR export (.xml) and send it to the server, which imports its
// posts in one go; the list is refetched and the input cleared either way.
import { useState } from 'react';
import { handleUnauthorized } from '#admin/lib/query.ts';
import { FileButton } from '#admin/ui/file-button.tsx';
import { errorMessage } from '#lib/api-client.ts';
import { toast } from '#lib/toast.ts';
import { importWordPress } from '#admin/features/blog/api/posts.ts';

const MAX_BYTES = 10 * 1024 * 1024;
const FAILED = { title: 'Import Failed', variant: 'destructive' as const };
const failure = (reason?: string) => ({ ...FAILED, description: `There was an error importing your WordPress posts${reason ? `. ${reason}` : ''}` });

export function WordPressImportButton({ onImported }: { onImported: () => void }) {
  const [busy, setBusy] = useState(false);

  // FileButton clears the input before this runs, so the same file can be picked again.
  const onPick = async (file: File) => {
    try {
      if (!file.name.toLowerCase().endsWith('.xml')) return toast(failure('Choose the .xml file WordPress exports (Tools → Export).'));
      if (file.size > MAX_BYTES) return toast(failure('The file is larger than 10 MB.'));
      setBusy(true);
      const { imported, skipped, keptPrivate } = await importWordPress(file);
      // One toast (a new one replaces the last): private posts kept as drafts are named in it.
      const kept = keptPrivate.length ? `. Kept as drafts, as they were not public on WordPress: ${keptPrivate.map((p) => `'${p.title}' (${p.reason})`).join(', ')}` : '';
      toast({ title: 'Import Successful', description: `Imported ${imported} posts successfully${skipped ? ` (${skipped} skipped)` : ''}${kept}` });
      onImported();
    } catch (err) {
      if (!handleUnauthorized(err)) toast(failure(errorMessage(err, '') || undefined));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FileButton id="wordpress-import" label="Import WordPress" accept=".xml,text/xml,application/xml" disabled={busy} onFile={(file) => void onPick(file)}>
      {busy ? 'Importing...' : 'Import WordPress'}
    </FileButton>
  );
}
