// The files a buyer of a product gets: uploaded with progress, checked by type from their bytes
// on the server and kept privately (sent only through a paid order's download links).
import { useState } from 'react';
import { useQuery } from '#admin/lib/query.ts';
import { FileButton } from '#admin/ui/file-button.tsx';
import { TrashIcon } from '#admin/ui/icons.tsx';
import { ProgressBar } from '#admin/ui/progress.tsx';
import { UploadError, sendFile } from '#admin/ui/upload.ts';
import { toast } from '#lib/toast.ts';
import { formatBytes } from '#shared/format.ts';
import { deleteProductFile, filesPath, type ProductFile } from '#admin/features/products/api/products.ts';

const MAX_BYTES = 500 * 1024 * 1024;
const ACCEPT = '.pdf,.zip,.epub,.mp3,.mp4,application/pdf,application/zip,application/epub+zip,audio/mpeg,video/mp4';

export function ProductFiles({ productId }: { productId: number | null }) {
  const files = useQuery<ProductFile[]>(productId ? filesPath(productId) : null, 'Failed to load the product files');
  const [progress, setProgress] = useState<number | null>(null);

  if (!productId) {
    return <p className="text-sm text-slate-600">Files to download: save the product first, then add the files buyers get.</p>;
  }

  const add = async (file: File) => {
    if (file.size > MAX_BYTES) {
      toast({ title: 'Upload Error', description: 'The file is larger than 500 MB.', variant: 'destructive' });
      return;
    }
    setProgress(0);
    try {
      const stored = await sendFile<ProductFile>('POST', `${filesPath(productId)}?name=${encodeURIComponent(file.name)}`, file, 'id', setProgress);
      toast({ title: 'File added', description: `Buyers of this product now get ${stored.fileName}.` });
      await files.refetch();
    } catch (err) {
      toast({ title: 'Upload Error', description: err instanceof UploadError ? err.message : 'Upload failed.', variant: 'destructive' });
    } finally {
      setProgress(null);
    }
  };

  const remove = async (file: ProductFile) => {
    try {
      await deleteProductFile(productId, file.id);
      toast({ title: 'File removed', description: `${file.fileName} is no longer delivered, and links already sent for it stop working.` });
      await files.refetch();
    } catch {
      // mutate() has said so
    }
  };

  const list = files.data ?? [];
  return (
    <section aria-labelledby="product-files-title" className="rounded-xl border border-slate-200 p-4">
      <h3 id="product-files-title" className="text-sm font-medium text-slate-800">
        Files to download
      </h3>
      <p id="product-files-hint" className="mt-1 text-xs text-slate-500">
        PDF, ZIP, EPUB, MP3 or MP4, up to 500 MB each. Kept private: buyers get them through their receipt's links. Removing a file ends the links already sent for it.
      </p>
      {list.length > 0 && (
        <ul className="mt-3 divide-y divide-slate-100" aria-label="Product files">
          {list.map((f) => (
            <li key={f.id} className="flex items-center justify-between gap-3 py-2 text-sm">
              <span className="truncate text-ink">{f.fileName}</span>
              <span className="flex items-center gap-3 text-slate-500">
                {formatBytes(f.size)}
                <button type="button" className="rounded p-1 text-slate-500 hover:text-red-700" aria-label={`Remove ${f.fileName}`} onClick={() => void remove(f)}>
                  <TrashIcon size={16} />
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-3">
        <FileButton id="product-file" label="Add a file" accept={ACCEPT} onFile={(f) => void add(f)} disabled={progress !== null} describedBy="product-files-hint">
          {progress !== null ? 'Uploading...' : undefined}
        </FileButton>
        {progress !== null && <ProgressBar value={progress} label="Upload progress" />}
      </div>
    </section>
  );
}
