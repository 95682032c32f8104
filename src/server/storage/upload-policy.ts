// What may be uploaded: the declared type picks the size limit, the file's own bytes must
// agree with it. SVG and HTML are refused: served from our origin they could run script.

export type UploadKind = 'image' | 'audio';

export const LIMITS: Record<UploadKind, number> = { image: 5 * 1024 * 1024, audio: 100 * 1024 * 1024 };

/** MIME types accepted per kind, with the extension the stored file gets. */
export const ALLOWED: Record<string, { kind: UploadKind; ext: string }> = {
  'image/jpeg': { kind: 'image', ext: 'jpg' },
  'image/png': { kind: 'image', ext: 'png' },
  'image/gif': { kind: 'image', ext: 'gif' },
  'image/webp': { kind: 'image', ext: 'webp' },
  'image/avif': { kind: 'image', ext: 'avif' },
  'audio/mpeg': { kind: 'audio', ext: 'mp3' },
  'audio/mp4': { kind: 'audio', ext: 'm4a' },
  'audio/x-m4a': { kind: 'audio', ext: 'm4a' },
  'audio/aac': { kind: 'audio', ext: 'aac' },
  'audio/wav': { kind: 'audio', ext: 'wav' },
  'audio/x-wav': { kind: 'audio', ext: 'wav' },
  'audio/ogg': { kind: 'audio', ext: 'ogg' },
  'audio/opus': { kind: 'audio', ext: 'opus' },
};

/** Content types the /uploads route serves, by extension. */
export const SERVE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
};

/** The kind a declared Content-Type asks for, or null when it is not an upload type at all. */
export function declaredKind(contentType: string | null): UploadKind | null {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  return null;
}
