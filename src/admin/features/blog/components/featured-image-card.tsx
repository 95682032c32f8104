// The post's featured image: a preview, a URL field, and 'Upload Image' (one image, 5 MB)
// through the single-use upload URL, with a progress bar.
import { useState } from 'react';
import { TextField } from '#admin/ui/controls.tsx';
import { FileButton } from '#admin/ui/file-button.tsx';
import { ImageIcon, XIcon } from '#admin/ui/icons.tsx';
import { ProgressBar } from '#admin/ui/progress.tsx';
import { uploadFile } from '#admin/ui/upload.ts';
import { toast } from '#lib/toast.ts';

interface Props {
  value: string;
  onChange: (url: string) => void;
  error?: string | undefined;
}

export function FeaturedImageCard({ value, onChange, error }: Props) {
  const [progress, setProgress] = useState<number | null>(null);
  /** The address that failed to load, if any: a new address gets a fresh try. */
  const [brokenSrc, setBrokenSrc] = useState<string | null>(null);

  const upload = async (file: File) => {
    setProgress(0);
    try {
      const { url } = await uploadFile(file, 'image', setProgress);
      onChange(url);
      toast({ title: 'Image uploaded' });
    } catch {
      // uploadFile has shown the reason.
    } finally {
      setProgress(null);
    }
  };

  const src = value.trim();
  const broken = brokenSrc === src;
  return (
    <section aria-labelledby="featured-image-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="featured-image-heading" className="text-sm font-semibold text-ink">
        Featured Image
      </h2>
      <div className="relative mt-3 aspect-[16/9] overflow-hidden rounded-xl border border-slate-200 bg-slate-50">
        {src && !broken ? (
          <>
            <img src={src} alt="Featured image preview" className="h-full w-full object-cover" onError={() => setBrokenSrc(src)} />
            <button
              type="button"
              onClick={() => onChange('')}
              aria-label="Remove featured image"
              title="Remove image"
              className="absolute top-2 right-2 inline-flex h-8 w-8 items-center justify-center rounded-full bg-slate-900/70 text-white backdrop-blur transition hover:bg-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              <XIcon size={16} />
            </button>
          </>
        ) : (
          <div className="flex h-full flex-col items-center justify-center gap-2 px-4 text-center text-slate-500">
            <ImageIcon size={28} />
            <p className="text-xs">{src ? 'This image could not be loaded. Check the URL.' : 'No image yet. Paste a URL or upload one.'}</p>
          </div>
        )}
      </div>

      <div className="mt-4 space-y-3">
        <TextField
          id="post-featured-image"
          label="Image URL"
          type="text"
          inputMode="url"
          autoComplete="off"
          placeholder="https://…"
          value={value}
          error={error}
          onChange={(e) => onChange(e.target.value)}
        />
        <FileButton
          id="featured-image-upload"
          label="Upload Image"
          accept="image/jpeg,image/png,image/gif,image/webp,image/avif"
          disabled={progress !== null}
          describedBy="featured-image-types"
          onFile={(file) => void upload(file)}
        >
          {progress !== null ? 'Uploading...' : 'Upload Image'}
        </FileButton>
        {progress !== null && <ProgressBar value={progress} label="Image upload progress" />}
        <p id="featured-image-types" className="text-xs text-slate-500">
          JPEG, PNG, GIF, WebP or AVIF, up to 5 MB.
        </p>
      </div>
    </section>
  );
}
