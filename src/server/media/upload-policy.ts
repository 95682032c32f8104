// What may be uploaded: the declared type picks the size limit, the file's own bytes must
// agree with it. SVG and HTML are refused: served from our origin they could run script.

/** 'text': an episode's transcript (WebVTT, SRT) or chapters (Podcasting 2.0 JSON). */
export type UploadKind = 'image' | 'audio' | 'text';

export const LIMITS: Record<UploadKind, number> = { image: 5 * 1024 * 1024, audio: 100 * 1024 * 1024, text: 5 * 1024 * 1024 };

/** MIME types accepted per kind, with the extension the stored file gets. */
const ACCEPTED: Record<UploadKind, Record<string, string>> = {
  image: { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'image/avif': 'avif' },
  text: { 'text/vtt': 'vtt', 'application/x-subrip': 'srt', 'application/json': 'json' },
  audio: { 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'audio/x-m4a': 'm4a', 'audio/aac': 'aac', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/ogg': 'ogg', 'audio/opus': 'opus' },
};
export const ALLOWED: Record<string, { kind: UploadKind; ext: string }> = Object.fromEntries(
  Object.entries(ACCEPTED).flatMap(([kind, types]) => Object.entries(types).map(([mime, ext]) => [mime, { kind: kind as UploadKind, ext }])),
);

/** Content types the /uploads route serves, by extension (Opus is served as Ogg, its container). */
const SERVED_IMAGES = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif' };
const SERVED_AUDIO = { mp3: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac', wav: 'audio/wav', ogg: 'audio/ogg', opus: 'audio/ogg' };
const SERVED_TEXT = { vtt: 'text/vtt; charset=utf-8', srt: 'application/x-subrip; charset=utf-8', json: 'application/json' };
export const SERVE_TYPES: Record<string, string> = { ...SERVED_IMAGES, ...SERVED_AUDIO, ...SERVED_TEXT };

/** The kind a declared Content-Type asks for, or null when it is not an upload type at all. */
export function declaredKind(contentType: string | null): UploadKind | null {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type in ACCEPTED.text) return 'text';
  return null;
}

/**
 * What a transcript or chapters file really is, from its text: WebVTT starts with 'WEBVTT',
 * SRT with a cue number and a 00:00:00,000 --> time line, chapters are JSON with a
 * `chapters` list. Answers the MIME type it passes as, or null.
 */
export function sniffText(text: string, declared: string): string | null {
  const body = text.replace(/^\uFEFF/, '');
  if (declared === 'text/vtt') return /^WEBVTT(?:[ \t].*)?(?:\r?\n|$)/.test(body) ? declared : null;
  if (declared === 'application/x-subrip') return /^\s*\d+\s*\r?\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}/.test(body) ? declared : null;
  if (declared === 'application/json') {
    try {
      const json = JSON.parse(body) as { chapters?: unknown };
      return Array.isArray(json.chapters) ? declared : null;
    } catch {
      return null;
    }
  }
  return null;
}
