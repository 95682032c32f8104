// What may be uploaded: the declared type picks the size limit, the file's own bytes must
// agree with it. SVG and HTML are refused: served from our origin they could run script.

export type UploadKind = 'image' | 'audio';

export const LIMITS: Record<UploadKind, number> = { image: 5 * 1024 * 1024, audio: 100 * 1024 * 1024 };

/** MIME types accepted per kind, with the extension the stored file gets. */
const ACCEPTED: Record<UploadKind, Record<string, string>> = {
  image: { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'image/avif': 'avif' },
  audio: { 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'audio/x-m4a': 'm4a', 'audio/aac': 'aac', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/ogg': 'ogg', 'audio/opus': 'opus' },
};
export const ALLOWED: Record<string, { kind: UploadKind; ext: string }> = Object.fromEntries(
  Object.entries(ACCEPTED).flatMap(([kind, types]) => Object.entries(types).map(([mime, ext]) => [mime, { kind: kind as UploadKind, ext }])),
);

/** Content types the /uploads route serves, by extension (Opus is served as Ogg, its container). */
const SERVED_IMAGES = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif' };
const SERVED_AUDIO = { mp3: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac', wav: 'audio/wav', ogg: 'audio/ogg', opus: 'audio/ogg' };
export const SERVE_TYPES: Record<string, string> = { ...SERVED_IMAGES, ...SERVED_AUDIO };

/** The kind a declared Content-Type asks for, or null when it is not an upload type at all. */
export function declaredKind(contentType: string | null): UploadKind | null {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  return null;
}
