// WordPress import: an admin uploads a WXR export (the XML file of Tools > Export) and its
// posts become blog posts. The file is refused whole when anything about it is wrong, and the
// import is one transaction: it never leaves half a blog behind.
import { decodeHTML, decodeXML } from 'entities';
import * as fxp from 'fast-xml-parser';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { blogPosts } from '../../../db/schema/content.ts';
import { getDb } from '../context.ts';
import { HttpError, badRequest } from '../http/errors.ts';
import { slugify, truncate } from '../../shared/format.ts';
import { PostInputSchema } from '../../shared/schemas/blog-post.ts';
import { htmlToText, readTimeOf, sanitizePostHtml } from './sanitize.ts';

/** The largest export accepted; real blogs with years of posts stay well below it. */
export const MAX_WXR_BYTES = 10 * 1024 * 1024;
/** Room for the multipart boundaries and part headers around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

const tooLarge = () => new HttpError(413, `The file is too large: the limit is ${MAX_WXR_BYTES / 1024 / 1024} MB`, undefined, { Connection: 'close' });

/** Reads the request body, failing with 413 as soon as it passes `limit` bytes. */
async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of Readable.fromWeb(body as WebReadableStream<Uint8Array>)) {
    size += (chunk as Uint8Array).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Uint8Array);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

const XML_TYPE = /^(?:text|application)\/(?:[\w.+-]+\+)?xml$/i;

/**
 * Takes the export out of a multipart request (field `file`): 413 over 10 MB, 415 unless it
 * is multipart with an .xml file of an XML type (or an undeclared one), 400 without a file.
 */
export async function readWxrUpload(request: Request): Promise<string> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new HttpError(415, 'Send the export as multipart/form-data with the field "file"');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_WXR_BYTES + MULTIPART_OVERHEAD) throw tooLarge();
  if (!request.body) throw badRequest('Choose a WordPress export file (.xml)');
  const raw = await readCapped(request.body, MAX_WXR_BYTES + MULTIPART_OVERHEAD);

  let form: FormData;
  try {
    form = await new Response(raw, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw badRequest('The upload could not be read as a form');
  }
  const file = form.get('file');
  if (!file || typeof file === 'string') throw badRequest('Choose a WordPress export file (.xml)', [{ path: ['file'], message: 'Choose a WordPress export file (.xml)' }]);
  if (file.size > MAX_WXR_BYTES) throw tooLarge();
  // Browsers send application/octet-stream for a file whose type they do not know.
  const type = file.type.split(';')[0]!.trim().toLowerCase();
  const undeclared = type === '' || type === 'application/octet-stream';
  if (!file.name.toLowerCase().endsWith('.xml') || !(undeclared || XML_TYPE.test(type))) {
    throw new HttpError(415, 'Only WordPress export files (.xml) can be imported');
  }
  if (file.size === 0) throw badRequest('The file is empty');
  return file.text();
}

// ---------------------------------------------------------------------------------------------
// Parsing

type XmlNode = string | number | boolean | { '#text'?: unknown; '#cdata'?: unknown; [key: string]: unknown } | undefined;

interface WxrItem {
  title: string;
  slug: string;
  type: string;
  status: string;
  /** Set when the post is password-protected on WordPress. */
  password: string;
  content: string;
  excerpt: string;
  category: string | null;
  date: Date | null;
}

// fast-xml-parser 5 marks its bundled validator deprecated in favour of the separate
// fast-xml-validator package; it is the same code, and its parser alone accepts broken XML.
const { XMLValidator } = fxp as unknown as {
  XMLValidator: { validate: (xml: string) => true | { err: { msg: string; line: number; col: number } } };
};

const parser = new fxp.XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // No entity expansion at all (not even the DOCTYPE's); text is decoded below with the fixed
  // XML/HTML entity tables only.
  processEntities: false,
  htmlEntities: false,
  cdataPropName: '#cdata',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => name === 'item' || name === 'category',
});

/** The text of an element: CDATA as written, plain text with its XML entities decoded. */
function textOf(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') return decodeXML(String(node));
  if (Array.isArray(node)) return node.map(textOf).join('');
  const n = node as Exclude<XmlNode, string | number | boolean | undefined>;
  const plain = n['#text'] === undefined ? '' : textOf(n['#text']);
  const cdata = n['#cdata'] === undefined ? '' : ([] as unknown[]).concat(n['#cdata']).map(String).join('');
  return plain + cdata;
}

/** WordPress writes 'YYYY-MM-DD HH:MM:SS'; unpublished drafts carry '0000-00-00 00:00:00'. */
function wpDate(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(value.trim());
  if (!m || m[1] === '0000') return null;
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** RSS pubDate; WordPress writes 'Mon, 30 Nov -0001 …' for drafts, which is no date. */
function rssDate(value: string): Date | null {
  const t = Date.parse(value);
  return Number.isNaN(t) || new Date(t).getUTCFullYear() < 1995 ? null : new Date(t);
}

/** Refuses a DOCTYPE that declares entities: the billion-laughs and external-entity attacks. */
function assertNoEntityDeclarations(xml: string): void {
  const doctype = xml.search(/<!DOCTYPE/i);
  if (doctype === -1) return;
  const root = xml.slice(doctype).search(/<[A-Za-z_]/);
  const prolog = root === -1 ? xml.slice(doctype) : xml.slice(doctype, doctype + root);
  if (/<!ENTITY/i.test(prolog)) {
    throw badRequest('The file declares XML entities in a DOCTYPE, which is not allowed in a WordPress export');
  }
}

/** Parses a WXR document into its items; 400 for anything that is not well-formed WXR. */
export function parseWxr(source: string): WxrItem[] {
  const xml = source.replace(/^\uFEFF/, '');
  assertNoEntityDeclarations(xml);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw badRequest(`The file is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`);
  let doc: { rss?: { channel?: { item?: Record<string, unknown>[] } } };
  try {
    doc = parser.parse(xml);
  } catch (err) {
    throw badRequest(`The file could not be read as XML${err instanceof Error ? ` (${err.message})` : ''}`);
  }
  const channel = doc?.rss?.channel;
  if (!channel || typeof channel !== 'object') {
    throw badRequest('This is not a WordPress export: the file has no <rss><channel>');
  }
  return (channel.item ?? []).map((item) => {
    const categories = ([] as unknown[]).concat(item.category ?? []) as Record<string, unknown>[];
    const category = categories.find((c) => typeof c === 'object' && c?.['@_domain'] === 'category');
    return {
      title: decodeHTML(textOf(item.title)).trim(),
      slug: textOf(item['wp:post_name']).trim(),
      type: textOf(item['wp:post_type']).trim(),
      status: textOf(item['wp:status']).trim(),
      password: textOf(item['wp:post_password']),
      content: textOf(item['content:encoded']),
      excerpt: textOf(item['excerpt:encoded']),
      category: category ? decodeHTML(textOf(category)).trim() || null : null,
      date: wpDate(textOf(item['wp:post_date_gmt'])) ?? wpDate(textOf(item['wp:post_date'])) ?? rssDate(textOf(item.pubDate)),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Content

const BLOCKS = 'p|h[1-6]|ul|ol|li|blockquote|div|figure|figcaption|table|thead|tbody|tfoot|tr|td|th|pre|hr|section|article|aside|header|footer|dl|dt|dd|address|iframe|form|script|style|noscript';
const BLOCK_START = new RegExp(`^<\\/?(?:${BLOCKS})[\\s/>]`, 'i');

/**
 * WordPress stores classic-editor posts without paragraph tags (its wpautop adds them on
 * display). Like wpautop: block tags get their own lines, text separated by blank lines
 * becomes paragraphs and single newlines line breaks; <pre> blocks are left alone, and
 * [caption] shortcodes become figures.
 */
export function autop(html: string): string {
  const pres: string[] = [];
  const text = html
    .replace(/\r\n?/g, '\n')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<pre[\s>][\s\S]*?<\/pre>/gi, (m) => `\n\n\uE000${pres.push(m) - 1}\uE000\n\n`)
    .replace(
      /\[caption[^\]]*\]\s*((?:<a [^>]*>\s*)?<img[^>]*>(?:\s*<\/a>)?)\s*([\s\S]*?)\[\/caption\]/gi,
      (_m, img: string, caption: string) => `<figure>${img}${caption.trim() ? `<figcaption>${caption.trim()}</figcaption>` : ''}</figure>`,
    )
    .replace(new RegExp(`(<(?:${BLOCKS})[\\s/>])`, 'gi'), '\n\n$1')
    .replace(new RegExp(`(</(?:${BLOCKS})>)`, 'gi'), '$1\n\n');
  return text
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk) => {
      const pre = /^\uE000(\d+)\uE000$/.exec(chunk);
      if (pre) return pres[Number(pre[1])]!;
      if (BLOCK_START.test(chunk)) return chunk;
      return `<p>${chunk.replace(/\n/g, '<br>')}</p>`;
    })
    .join('');
}

const IMPORTABLE_STATUS: Record<string, boolean> = { publish: true, draft: false, pending: false, private: false, future: false };

/** Maps WordPress's default category and anything blank to the site's default. */
function categoryOf(name: string | null): string {
  if (!name || /^uncategori[sz]ed$/i.test(name)) return 'General';
  return name.slice(0, 100);
}

/** A post that was not public on WordPress, imported as a draft for the owner to decide on. */
export interface KeptPrivate {
  title: string;
  slug: string;
  reason: 'password-protected' | 'private';
}

export interface ImportResult {
  imported: number;
  skipped: number;
  /** Imported as drafts because WordPress did not show them to everyone. */
  keptPrivate: KeptPrivate[];
}

/**
 * Imports the posts of a WXR document for `authorId`: published and unpublished posts
 * become published posts and drafts (password-protected and private ones always drafts, listed
 * in `keptPrivate`); attachments, pages, menu items, trashed posts, posts
 * whose slug exists already (or earlier in the file) and invalid ones are skipped. All or
 * nothing: one transaction.
 */
export function importWordPress(xml: string, authorId: string): ImportResult {
  const items = parseWxr(xml);
  const candidates = items.map((item) => {
    if (item.type !== 'post' || !Object.hasOwn(IMPORTABLE_STATUS, item.status)) return null;
    // A password-protected or private post was not for everyone to read: it never goes public
    // by itself here, whatever its status says.
    const hidden: KeptPrivate['reason'] | null = item.password !== '' ? 'password-protected' : item.status === 'private' ? 'private' : null;
    const isPublished = IMPORTABLE_STATUS[item.status]! && !hidden;
    const slug = /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(item.slug) ? item.slug : slugify(safeDecodeURI(item.slug)) || slugify(item.title);
    const excerpt = htmlToText(item.excerpt);
    const parsed = PostInputSchema.safeParse({
      title: fit(item.title, 255),
      slug,
      excerpt: fit(excerpt, 500),
      content: sanitizePostHtml(autop(item.content)).replace(/<p>(?:\s|<br \/>|&nbsp;)*<\/p>/g, ''),
      featuredImage: null,
      category: categoryOf(item.category),
      isPublished,
    });
    if (!parsed.success) return null;
    return { ...parsed.data, date: item.date, hidden };
  });

  const db = getDb();
  return db.transaction((tx) => {
    const taken = new Set(tx.select({ slug: blogPosts.slug }).from(blogPosts).all().map((r) => r.slug));
    let imported = 0;
    const keptPrivate: KeptPrivate[] = [];
    for (const post of candidates) {
      if (!post || taken.has(post.slug)) continue;
      taken.add(post.slug);
      const createdAt = post.date ?? new Date();
      tx.insert(blogPosts)
        .values({
          title: post.title,
          slug: post.slug,
          excerpt: post.excerpt,
          content: post.content,
          featuredImage: null,
          category: post.category,
          isPublished: post.isPublished,
          authorId,
          readTime: readTimeOf(post.content),
          publishedAt: post.isPublished ? createdAt : null,
          createdAt,
        })
        .run();
      imported++;
      if (post.hidden) keptPrivate.push({ title: post.title, slug: post.slug, reason: post.hidden });
    }
    return { imported, skipped: items.length - imported, keptPrivate };
  });
}

/** Text cut to `max` characters with '...' when it is longer. */
const fit = (text: string, max: number) => (text.length > max ? truncate(text, max - 3) : text);

function safeDecodeURI(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
