// A button that picks one file: a real (visually hidden) file input under a button-styled
// label, so it is reachable by keyboard, named by its label, and testable with setInputFiles.
import type { ReactNode } from 'react';
import { UploadIcon } from './icons';

interface FileButtonProps {
  id: string;
  label: string;
  accept: string;
  onFile: (file: File) => void;
  disabled?: boolean | undefined;
  /** Replaces the label text while something happens (e.g. 'Uploading...'); the name stays `label`. */
  children?: ReactNode;
  describedBy?: string | undefined;
}

export function FileButton({ id, label, accept, onFile, disabled, children, describedBy }: FileButtonProps) {
  return (
    <span className="inline-flex">
      <input
        id={id}
        type="file"
        accept={accept}
        disabled={disabled}
        aria-label={label}
        aria-describedby={describedBy}
        className="peer sr-only"
        onChange={(e) => {
          const file = e.target.files?.[0];
          // Cleared so choosing the same file again still fires a change.
          e.target.value = '';
          if (file) onFile(file);
        }}
      />
      <label
        htmlFor={id}
        className="btn-secondary cursor-pointer py-2 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 peer-disabled:cursor-not-allowed peer-disabled:opacity-60"
      >
        <UploadIcon size={16} />
        <span>{children ?? label}</span>
      </label>
    </span>
  );
}
