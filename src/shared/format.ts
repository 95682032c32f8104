// Formatting shared by pages, islands and the admin: dates, durations, money, slugs.
// Dates use Intl (no hand-written calendars); all in en-US as the spec shows them.

// Each formatter is made at its first use, not when this module loads: a phone's first Intl
// formatter takes tens of milliseconds, which a page that formats nothing need not spend.
const once = <T>(make: () => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};
const longDate = once(() => new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }));
const shortDate = once(() => new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }));
const monthDay = once(() => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }));
const usd = once(() => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }));

const toDate = (d: Date | string | number | null | undefined) => {
  if (d === null || d === undefined || d === '') return null;
  const date = d instanceof Date ? d : new Date(d);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** 'November 22, 2026' */
export const formatLongDate = (d: Date | string | number | null | undefined) => {
  const date = toDate(d);
  return date ? longDate().format(date) : '';
};

/** 'Nov 22, 2026' */
export const formatShortDate = (d: Date | string | number | null | undefined) => {
  const date = toDate(d);
  return date ? shortDate().format(date) : '';
};

/** 'Nov 22', or 'No date' (blog cards). */
export const formatMonthDay = (d: Date | string | number | null | undefined) => {
  const date = toDate(d);
  return date ? monthDay().format(date) : 'No date';
};

/** Seconds as whole minutes, rounded down: '12 min', or '-- min' when absent (public podcast). */
export const formatMinutes = (seconds: number | null | undefined) => (seconds && seconds > 0 ? `${Math.floor(seconds / 60)} min` : '-- min');

/** Seconds as m:ss, or '-- min' when absent (admin). */
export const formatClock = (seconds: number | null | undefined) => (seconds && seconds > 0 ? `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}` : '-- min');

/** Cents as US dollars: 49700 -> '$497.00'. */
export const formatPrice = (cents: number) => usd().format(cents / 100);

/** How an episode is titled in lists: 'Episode 3: Title', or the title alone without a number. */
export const episodeHeading = (e: { episodeNumber: number | null; title: string }) => (e.episodeNumber ? `Episode ${e.episodeNumber}: ${e.title}` : e.title);

/** The editor's slug rule: lowercase, runs of non-alphanumerics become '-', ends trimmed. */
export const slugify = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** Read time label, default 5 min. */
export const formatReadTime = (minutes: number | null | undefined) => `${minutes && minutes > 0 ? minutes : 5} min read`;

/** The fallback cover image (one of six shipped in public/images/covers) for a post id. */
export const fallbackCover = (id: number) => `/images/covers/cover-${((((id - 1) % 6) + 6) % 6) + 1}.svg`;

/** Cuts plain text to `max` characters and adds '...' when it was longer. */
export const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max).trimEnd()}...` : text);

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u001F\u007F]/g;

/** Text with each C0 control character or DEL (NUL, tab, newline...) turned into a space. */
export const stripControlChars = (text: string) => text.replace(CONTROL_CHARS, ' ');

/** True when the text holds a C0 control character or DEL. */
export const hasControlChars = (text: string) => new RegExp(CONTROL_CHARS.source).test(text);

/** A file size as people read it: '1.4 MB', '12 KB' (at least 1 KB). */
export const formatBytes = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** A count with thousands separators: 50000 -> '50,000'. */
export const formatCount = (n: number) => n.toLocaleString('en-US');

/**
 * Where the feed and the players fetch an episode's audio: through the site, which counts the
 * download and sends the request on to the file. The file's own name stays last (some podcast
 * apps read the type from it).
 */
export function episodeAudioPath(episode: { id: number; audioUrl: string | null }): string | null {
  if (!episode.audioUrl) return null;
  const name = (episode.audioUrl.split(/[?#]/)[0]!.split('/').pop() ?? '').replace(/[^A-Za-z0-9._-]/g, '') || 'audio.mp3';
  return `/podcast/e/${episode.id}/${name}`;
}
