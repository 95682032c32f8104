// The editor's 'Image' dialog: an address, or a file uploaded with progress, and the alt text
// (required: it is what people who cannot see the image are told).
import { useState } from 'react';
import { TextField } from '#admin/ui/controls.tsx';
import { FileButton } from '#admin/ui/file-button.tsx';
import { FormDialog } from '#admin/ui/form-dialog.tsx';
import { ProgressBar } from '#admin/ui/progress.tsx';
import { uploadFile } from '#admin/ui/upload.ts';

interface Props {
  onInsert: (image: { src: string; alt: string }) => void;
  onClose: () => void;
}

export function ImageDialog({ onInsert, onClose }: Props) {
  const [src, setSrc] = useState('');
  const [alt, setAlt] = useState('');
  const [errors, setErrors] = useState<{ src?: string | undefined; alt?: string | undefined }>({});
  const [progress, setProgress] = useState<number | null>(null);

  const upload = async (file: File) => {
    setProgress(0);
    try {
      const stored = await uploadFile(file, 'image', setProgress);
      setSrc(stored.url);
      setErrors((e) => ({ ...e, src: undefined }));
    } catch {
      // uploadFile has said why
    } finally {
      setProgress(null);
    }
  };

  const insert = () => {
    const found = {
      src: /^(https?:\/\/|\/uploads\/)/.test(src.trim()) ? undefined : 'Enter an image address or upload a file',
      alt: alt.trim() ? undefined : 'Describe the image for people who cannot see it',
    };
    setErrors(found);
    if (found.src) return document.getElementById('image-src')?.focus();
    if (found.alt) return document.getElementById('image-alt')?.focus();
    onInsert({ src: src.trim(), alt: alt.trim() });
  };

  return (
    <FormDialog open onClose={onClose} title="Insert Image" submitLabel="Insert Image" submitDisabled={progress !== null} onSubmit={insert} size="md">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <TextField id="image-src" label="Image address" inputMode="url" placeholder="https://…" value={src} error={errors.src} onChange={(e) => setSrc(e.target.value)} />
        </div>
        <FileButton id="image-file" label="Upload Image" accept="image/*" onFile={(f) => void upload(f)} disabled={progress !== null}>
          {progress !== null ? 'Uploading...' : 'Upload Image'}
        </FileButton>
      </div>
      {progress !== null && <ProgressBar value={progress} label="Image upload progress" />}
      <TextField id="image-alt" label="Alt text" hint="What the image shows, for screen readers and search engines" value={alt} error={errors.alt} onChange={(e) => setAlt(e.target.value)} />
    </FormDialog>
  );
}
