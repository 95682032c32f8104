// 'Import WordPress': pick a WXR export (.xml) and send it to the server, which imports its
// posts in one go; the list is refetched and the input cleared either way.
import { useRef, useState } from 'react';
import { handleUnauthorized } from '@/admin/lib/query';
import { UploadIcon } from '@/admin/ui/icons';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { importWordPress } from '../api/posts';

const MAX_BYTES = 10 * 1024 * 1024;
const FAILED = { title: 'Import Failed', variant: 'destructive' as const };
const failure = (reason?: string) => ({ ...FAILED, description: `There was an error importing your WordPress posts${reason ? `. ${reason}` : ''}` });

export function WordPressImportButton({ onImported }: { onImported: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const onPick = async (file: File | undefined) => {
    if (!file) return;
    try {
      if (!file.name.toLowerCase().endsWith('.xml')) return toast(failure('Choose the .xml file WordPress exports (Tools → Export).'));
      if (file.size > MAX_BYTES) return toast(failure('The file is larger than 10 MB.'));
      setBusy(true);
      const { imported, skipped } = await importWordPress(file);
      toast({ title: 'Import Successful', description: `Imported ${imported} posts successfully${skipped ? ` (${skipped} skipped)` : ''}` });
      onImported();
    } catch (err) {
      if (!handleUnauthorized(err)) toast(failure(errorMessage(err, '') || undefined));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".xml,text/xml,application/xml"
        className="hidden"
        aria-label="WordPress export file"
        onChange={(e) => void onPick(e.target.files?.[0])}
      />
      <button type="button" className="btn-secondary" disabled={busy} onClick={() => input.current?.click()} title="Import posts from a WordPress export (.xml)">
        {busy ? <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" aria-hidden="true" /> : <UploadIcon size={16} />}
        {busy ? 'Importing...' : 'Import WordPress'}
      </button>
    </>
  );
}
