// WordPress exports (WXR): parsing, classic-editor paragraphs, and the import itself into a
// given database, in one transaction. No server state here: the import runs in a worker thread
// (wordpress-import-worker.ts) so a large export never stalls the server's event loop.
import { decodeHTML, decodeXML } from 'entities';
import * as fxp from 'fast-xml-parser';
import type { Db } from '../../../db/client.ts';
import { blogPosts } from '../../../db/schema/content.ts';
import { badRequest } from '../http/errors.ts';
import { slugify, truncate } from '../../shared/format.ts';
import { PostInputSchema } from '../../shared/schemas/blog-post.ts';
import { htmlToText, readTimeOf, sanitizePostHtml } from './sanitize.ts';

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
 * Replaces each span from an `open` match to the next `close` match with what `replace` makes
 * of it, in one pass: each search starts where the previous one ended, so the time is linear
 * even for a text full of unclosed openings (a lazy `open[\s\S]*?close` regex rescans the rest
 * of the text from every one of them). An unclosed span, and all after it, stays as it is.
 */
function replaceSpans(text: string, open: string, close: string, replace: (span: string) => string): string {
  const opening = new RegExp(open, 'gi');
  const closing = new RegExp(close, 'gi');
  let out = '';
  let from = 0;
  for (let m = opening.exec(text); m; m = opening.exec(text)) {
    closing.lastIndex = m.index + m[0].length;
    const c = closing.exec(text);
    if (!c) break;
    const end = c.index + c[0].length;
    out += text.slice(from, m.index) + replace(text.slice(m.index, end));
    from = opening.lastIndex = end;
  }
  return out + text.slice(from);
}

// One whole [caption] shortcode: its image (maybe linked) and the caption text after it.
const CAPTION = /^\[caption[^\]]*\]\s*((?:<a [^>]*>\s*)?<img[^>]*>(?:\s*<\/a>)?)\s*([\s\S]*)\[\/caption\]$/i;

/**
 * WordPress stores classic-editor posts without paragraph tags (its wpautop adds them on
 * display). Like wpautop: block tags get their own lines, text separated by blank lines
 * becomes paragraphs and single newlines line breaks; <pre> blocks are left alone, and
 * [caption] shortcodes become figures. Linear in the length of the post, whatever it holds.
 */
export function autop(html: string): string {
  const pres: string[] = [];
  let text = html.replace(/\r\n?/g, '\n');
  text = replaceSpans(text, '<!--', '-->', () => '');
  text = replaceSpans(text, '<pre[\\s>]', '</pre>', (m) => `\n\n\uE000${pres.push(m) - 1}\uE000\n\n`);
  text = replaceSpans(text, '\\[caption', '\\[/caption\\]', (span) => {
    const m = CAPTION.exec(span);
    if (!m) return span;
    const caption = m[2]!.trim();
    return `<figure>${m[1]}${caption ? `<figcaption>${caption}</figcaption>` : ''}</figure>`;
  });
  text = text.replace(new RegExp(`(<(?:${BLOCKS})[\\s/>])`, 'gi'), '\n\n$1').replace(new RegExp(`(</(?:${BLOCKS})>)`, 'gi'), '$1\n\n');
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
export function importWxr(db: Db, xml: string, authorId: string): ImportResult {
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
