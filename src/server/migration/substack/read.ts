// A Substack export (Settings → Exports → Create new export): a zip holding `posts.csv` (one
// row per post), `posts/<post_id>.html` (each post's body; post_id is '<number>.<slug>') and
// the e-mail list, `email_list.<publication>.csv`. The zip is read entry by entry from disk
// (yauzl), never whole into memory; its directory is checked first (entry count, sizes, names),
// and posts.csv read and checked, before anything is written.
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeHTML } from 'entities';
import Papa from 'papaparse';
import sanitizeHtml from 'sanitize-html';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { HttpError, badRequest } from '#server/http/errors.ts';
import { tempPath } from '#server/media/local.ts';
import type { SourceItem } from '#server/migration/publication.ts';

/** The largest export accepted: Substack's zip holds text only (no images), so years of posts stay well below it. */
export const MAX_SUBSTACK_BYTES = 100 * 1024 * 1024;
/** Against zip bombs: entries, each entry's size and all of them unpacked. */
const MAX_ENTRIES = 20_000;
const MAX_POSTS_CSV = 20 * 1024 * 1024;
const MAX_POST_HTML = 5 * 1024 * 1024;
/** The subscriber import's own limit for a CSV. */
const MAX_EMAIL_LIST = 20 * 1024 * 1024;
const MAX_UNPACKED = 1024 * 1024 * 1024;

const REQUIRED_COLUMNS = ['post_id', 'post_date', 'is_published', 'title'] as const;

interface PostRow {
  post_id: string;
  post_date: string;
  is_published: string;
  type?: string;
  audience?: string;
  title: string;
  subtitle?: string;
  podcast_url?: string;
}

export interface SubstackExport {
  zip: ZipFile;
  rows: PostRow[];
  /** Each post's HTML entry, by post_id. */
  html: Map<string, Entry>;
  /** The e-mail list, copied out of the zip to a file of its own, or null when the export has none. */
  emailList: { file: string; name: string } | null;
}

const refuse = (reason: string) => badRequest(`This is not a Substack export that can be imported: ${reason}`);

/** Opens and checks a Substack export: 400 (nothing written) when it is not one. Close `zip` when done. */
export async function openSubstackExport(file: string): Promise<SubstackExport> {
  let zip: ZipFile;
  try {
    // Entries' sizes are checked against what they unpack to, so the directory's sizes can be trusted.
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true });
  } catch (err) {
    throw badRequest(`The file is not a readable zip archive (${reasonOf(err)})`);
  }
  try {
    if (zip.entryCount > MAX_ENTRIES) throw refuse(`it holds more than ${MAX_ENTRIES} files`);
    let unpacked = 0;
    let postsCsv: Entry | null = null;
    let emailList: Entry | null = null;
    const html = new Map<string, Entry>();
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      // yauzl refuses absolute names and '..' itself; never trusted further, as nothing is unpacked by name.
      if (name.split('/').includes('..') || name.startsWith('/') || name.includes('\\')) throw refuse(`the entry '${name}' points outside the archive`);
      unpacked += entry.uncompressedSize;
      if (unpacked > MAX_UNPACKED) throw refuse(`it unpacks to more than ${MAX_UNPACKED / 1024 / 1024} MB`);
      const base = name.replace(/^[^/]+\/(?=posts\.csv$|posts\/|email_list)/, '');
      if (base === 'posts.csv') postsCsv = limit(entry, MAX_POSTS_CSV);
      else if (/^email_list[^/]*\.csv$/i.test(base)) emailList = limit(entry, MAX_EMAIL_LIST);
      else {
        const m = /^posts\/([^/]+)\.html$/.exec(base);
        if (m) html.set(m[1]!, limit(entry, MAX_POST_HTML));
      }
    }
    if (!postsCsv) throw refuse('it has no posts.csv');
    const rows = parseRows(await readText(zip, postsCsv));
    // Every post is unpacked once here, so a damaged one stops the import before anything is written.
    for (const entry of html.values()) await drain(zip, entry);
    let list: SubstackExport['emailList'] = null;
    if (emailList) {
      const out = tempPath();
      await pipeline(await zip.openReadStreamPromise(emailList), createWriteStream(out));
      list = { file: out, name: emailList.fileName.split('/').pop()! };
    }
    return { zip, rows, html, emailList: list };
  } catch (err) {
    zip.close();
    if (err instanceof HttpError) throw err;
    throw badRequest(`The zip archive is damaged (${reasonOf(err)})`);
  }
}

function limit(entry: Entry, max: number): Entry {
  if (entry.uncompressedSize > max) throw refuse(`${entry.fileName} is larger than ${max / 1024 / 1024} MB`);
  return entry;
}

function parseRows(text: string): PostRow[] {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy' });
  const fields = parsed.meta.fields ?? [];
  const missing = REQUIRED_COLUMNS.filter((c) => !fields.includes(c));
  if (missing.length) throw refuse(`posts.csv has no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''}`);
  const broken = parsed.errors.find((e) => e.type === 'Quotes' || e.type === 'Delimiter');
  if (broken) throw refuse(`posts.csv cannot be read at row ${(broken.row ?? 0) + 2}: ${broken.message}`);
  return parsed.data.filter((r) => r.post_id?.trim()) as unknown as PostRow[];
}

async function drain(zip: ZipFile, entry: Entry): Promise<void> {
  const stream: Readable = await zip.openReadStreamPromise(entry);
  for await (const _chunk of stream);
}

/** An entry's text (its size was checked against its cap already). */
export async function readText(zip: ZipFile, entry: Entry): Promise<string> {
  const stream: Readable = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The export's posts as SourceItems, each body read from the zip as its turn comes. */
export async function* substackItems(exp: SubstackExport): AsyncGenerator<SourceItem> {
  for (const row of exp.rows) {
    const item = toItem(row);
    const entry = exp.html.get(row.post_id.trim());
    if (!item.skip && !entry) item.skip = 'its text is not in the export (Substack leaves out some recent posts): export again later';
    if (!item.skip && entry) item.html = cleanSubstackHtml(await readText(exp.zip, entry));
    yield item;
  }
}

function toItem(row: PostRow): SourceItem {
  const id = row.post_id.trim();
  const slug = id.replace(/^\d+\./, '');
  const type = (row.type ?? 'newsletter').trim().toLowerCase();
  const audio = (row.podcast_url ?? '').trim();
  const kind = type === 'page' ? 'page' : type === 'podcast' && /^https?:\/\//i.test(audio) ? 'episode' : 'post';
  const published = (row.is_published ?? '').trim().toLowerCase() === 'true';
  const date = new Date(row.post_date);
  const item: SourceItem = {
    label: `Substack ${type} ${id.split('.')[0]}`,
    kind,
    title: decodeHTML(row.title ?? '').trim() || '(no title)',
    slug,
    excerpt: decodeHTML(row.subtitle ?? '').trim(),
    html: '',
    status: published ? 'published' : 'draft',
    date: Number.isNaN(date.getTime()) ? null : date,
    featuredImage: null,
    tags: [],
    oldPaths: [`/p/${slug}`],
    audioUrl: kind === 'episode' ? audio : undefined,
  };
  const audience = (row.audience ?? '').trim();
  if (type === 'thread') item.skip = 'a discussion thread, which has no place here';
  else if (kind === 'page') item.draftReason = 'a page on Substack: publish it here if it belongs on the blog';
  else if (audience === 'only_paid') item.draftReason = 'for paid subscribers only on Substack, and this site has no subscribers-only posts';
  else if (audience === 'only_free') item.draftReason = 'for subscribers only on Substack, and this site has no subscribers-only posts';
  return item;
}

/** Substack's subscribe forms, sign-up, share and comment buttons: they lead back to Substack. */
const WIDGETS = /\b(?:subscription-widget-wrap(?:-editor)?|subscription-widget|subscribe-widget|button-wrapper|captioned-button-wrap|share-dialog|image-link-expand|post-ufi)\b/;

/** Substack's image proxy ('https://substackcdn.com/image/fetch/<options>/<encoded address>') as the address it wraps. */
export function unwrapImageProxy(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  if (url.hostname !== 'substackcdn.com' || !url.pathname.startsWith('/image/fetch/')) return value;
  try {
    const inner = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    return /^https?:\/\//i.test(inner) ? inner : value;
  } catch {
    return value;
  }
}

/** A post's HTML without Substack's widgets and with its images' real addresses; the site's sanitiser runs after. */
export function cleanSubstackHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    exclusiveFilter: (frame) => WIDGETS.test(frame.attribs.class ?? ''),
    transformTags: {
      img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, ...(attribs.src ? { src: unwrapImageProxy(attribs.src) } : {}) } }),
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, ...(attribs.href ? { href: unwrapImageProxy(attribs.href) } : {}) } }),
    },
  });
}
