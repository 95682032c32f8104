// Uploads from the admin: ask the server for a single-use upload URL, then PUT the file
// there with progress. Size and type are checked here for a quick answer and again (from
// the bytes) on the server.
import { API } from '#shared/api-paths.ts';
import { api } from '#lib/api-client.ts';
import { toast } from '#lib/toast.ts';
import { handleUnauthorized } from '#admin/lib/query.ts';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_AUDIO_BYTES = 100 * 1024 * 1024;

export interface UploadResult {
  url: string;
  contentType: string;
  size: number;
  /** Seconds, when the server could read it from an audio file. */
  duration?: number | null;
}

export class UploadError extends Error {}

/** Transcripts (WebVTT, SRT) and chapters (JSON) by file ending. */
const TEXT_TYPES: Record<string, string> = { vtt: 'text/vtt', srt: 'application/x-subrip', json: 'application/json' };

/** Sends a file as the request body with progress; resolves to the JSON answer (with `key` present). */
export function sendFile<T>(method: 'PUT' | 'POST', url: string, file: File, key: keyof T & string, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: { message?: string } & Partial<T>;
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        body = {};
      }
      if (xhr.status === 401) reject(new UploadError('You are logged out. Log in again and retry.'));
      else if (xhr.status >= 200 && xhr.status < 300 && body[key] !== undefined) resolve(body as T);
      else reject(new UploadError(body.message ?? `Upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new UploadError('Upload failed: the connection was interrupted'));
    xhr.send(file);
  });
}

/**
 * Uploads one file of the given kind. Shows the spec's toasts on failure and resolves to the
 * stored file's public URL; rejects after toasting.
 */
export async function uploadFile(file: File, kind: 'image' | 'audio' | 'text', onProgress: (fraction: number) => void): Promise<UploadResult> {
  const max = kind === 'audio' ? MAX_AUDIO_BYTES : MAX_IMAGE_BYTES;
  // Browsers name .srt files inconsistently: transcripts and chapters are typed by their ending.
  if (kind === 'text') file = new File([file], file.name, { type: TEXT_TYPES[file.name.split('.').pop()?.toLowerCase() ?? ''] ?? '' });
  if (kind === 'text' ? file.type === '' : !file.type.startsWith(`${kind}/`)) {
    const message = `Choose ${{ image: 'an image', audio: 'an audio', text: 'a .vtt, .srt or .json' }[kind]} file.`;
    toast({ title: 'Upload Error', description: message, variant: 'destructive' });
    throw new UploadError(message);
  }
  if (file.size > max) {
    const message = `The file is larger than ${max / 1024 / 1024} MB.`;
    toast({ title: 'Upload Error', description: message, variant: 'destructive' });
    throw new UploadError(message);
  }
  let uploadURL: string;
  try {
    ({ uploadURL } = await api<{ uploadURL: string }>('POST', API.uploadUrl));
  } catch (err) {
    if (!handleUnauthorized(err)) toast({ title: 'Upload Error', description: 'Failed to get upload URL. Please try again.', variant: 'destructive' });
    throw err;
  }
  try {
    return await sendFile<UploadResult>('PUT', uploadURL, file, 'url', onProgress);
  } catch (err) {
    toast({ title: 'Upload Error', description: err instanceof Error ? err.message : 'Upload failed.', variant: 'destructive' });
    throw err;
  }
}
