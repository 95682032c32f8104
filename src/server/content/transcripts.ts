// An episode's transcript as text for its page: the cues of a WebVTT or SRT file without
// numbers, times, settings or markup; a voice tag (<v Jordan>) becomes 'Jordan: '. Only files
// the site stores itself are read (a remote one is linked instead).
import { readFileSync, statSync } from 'node:fs';
import { decodeHTML } from 'entities';
import { resolveUpload } from '#server/media/local.ts';

const TIME_LINE = /^\s*(?:\d{1,2}:)?\d{2}:\d{2}[.,]\d{3}\s+-->/;
const MAX_BYTES = 5 * 1024 * 1024;

/** The spoken lines of a WebVTT or SRT transcript, one paragraph per cue. */
export function transcriptParagraphs(raw: string): string[] {
  const paragraphs: string[] = [];
  for (const block of raw
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => TIME_LINE.test(l));
    if (at === -1) continue; // the WEBVTT header, NOTE, STYLE and REGION blocks
    const markup = lines
      .slice(at + 1)
      .map((l) => l.replace(/<v(?:\.[^ >]*)?\s+([^>]+)>/g, '$1: ').replace(/<[^>]*>/g, ''))
      .join(' ');
    const text = decodeHTML(markup).replace(/\s+/g, ' ').trim();
    if (text) paragraphs.push(text);
  }
  return paragraphs;
}

/** The transcript of a stored file (/uploads/…), or null for one the site does not hold. */
export function storedTranscript(url: string | null): string[] | null {
  if (!url?.startsWith('/uploads/')) return null;
  const file = resolveUpload(url.slice('/uploads/'.length));
  try {
    if (!file || statSync(file).size > MAX_BYTES) return null;
    return transcriptParagraphs(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
