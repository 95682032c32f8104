// WordPress exports (WXR), read as a stream: each child of <channel> (an item, an author, a tag)
// is handed over whole as soon as it is closed, so a 50 MB export never sits in memory. Anything
// that is not well-formed WXR is refused, and so is any DOCTYPE that declares entities; only
// XML's own entities and character references are decoded.
import { createReadStream } from 'node:fs';
import { decodeHTML } from 'entities';
import { SaxesParser } from 'saxes';
import { badRequest } from '#server/http/errors.ts';

/** One element of the export with its attributes, children and text (CDATA included). */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

export interface WxrComment {
  id: number;
  author: string;
  email: string;
  date: Date | null;
  content: string;
  /** '1' approved, '0' pending, 'spam', 'trash' or 'post-trashed'. */
  approved: string;
  /** '' or 'comment' for a comment; 'pingback', 'trackback' otherwise. */
  type: string;
}

export interface WxrItem {
  /** WordPress's post id (0 when the export has none). */
  id: number;
  title: string;
  link: string;
  slug: string;
  type: string;
  status: string;
  /** Set when the post is password-protected on WordPress. */
  password: string;
  content: string;
  excerpt: string;
  category: string | null;
  tags: { slug: string; name: string }[];
  date: Date | null;
  /** The post's date on the site's own clock ('2019-05-04 12:30:00'): permalinks use it. */
  localDate: string;
  /** The author's login. */
  creator: string;
  /** An attachment's file. */
  attachmentUrl: string;
  /** The post's custom fields (the last value of each key). */
  meta: Record<string, string>;
  comments: WxrComment[];
}

export interface WxrAuthor {
  login: string;
  email: string;
}

const child = (el: XmlElement, name: string) => el.children.find((c) => c.name === name);
const textIn = (el: XmlElement, name: string) => child(el, name)?.text ?? '';
const intIn = (el: XmlElement, name: string) => Number.parseInt(textIn(el, name).trim(), 10) || 0;

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

/** An <item> as the import reads it. */
export function toItem(el: XmlElement): WxrItem {
  const categories = el.children.filter((c) => c.name === 'category');
  const category = categories.find((c) => c.attrs.domain === 'category');
  const tags = categories
    .filter((c) => c.attrs.domain === 'post_tag')
    .map((c) => ({ slug: (c.attrs.nicename ?? '').trim(), name: decodeHTML(c.text).trim() }))
    .filter((t) => t.name !== '');
  const meta: Record<string, string> = {};
  for (const m of el.children) if (m.name === 'wp:postmeta') meta[textIn(m, 'wp:meta_key').trim()] = textIn(m, 'wp:meta_value');
  return {
    id: intIn(el, 'wp:post_id'),
    title: decodeHTML(textIn(el, 'title')).trim(),
    link: textIn(el, 'link').trim(),
    slug: textIn(el, 'wp:post_name').trim(),
    type: textIn(el, 'wp:post_type').trim(),
    status: textIn(el, 'wp:status').trim(),
    password: textIn(el, 'wp:post_password'),
    content: textIn(el, 'content:encoded'),
    excerpt: textIn(el, 'excerpt:encoded'),
    category: category ? decodeHTML(category.text).trim() || null : null,
    tags,
    date: wpDate(textIn(el, 'wp:post_date_gmt')) ?? wpDate(textIn(el, 'wp:post_date')) ?? rssDate(textIn(el, 'pubDate')),
    localDate: textIn(el, 'wp:post_date').trim(),
    creator: textIn(el, 'dc:creator').trim(),
    attachmentUrl: textIn(el, 'wp:attachment_url').trim(),
    meta,
    comments: el.children
      .filter((c) => c.name === 'wp:comment')
      .map((c) => ({
        id: intIn(c, 'wp:comment_id'),
        author: decodeHTML(textIn(c, 'wp:comment_author')).trim(),
        email: textIn(c, 'wp:comment_author_email').trim(),
        date: wpDate(textIn(c, 'wp:comment_date_gmt')) ?? wpDate(textIn(c, 'wp:comment_date')),
        content: textIn(c, 'wp:comment_content'),
        approved: textIn(c, 'wp:comment_approved').trim(),
        type: textIn(c, 'wp:comment_type').trim(),
      })),
  };
}

export const toAuthor = (el: XmlElement): WxrAuthor => ({ login: textIn(el, 'wp:author_login').trim(), email: textIn(el, 'wp:author_email').trim() });

/**
 * A push parser for WXR: `write` text as it arrives, then `take` the children of <channel>
 * completed so far. Throws a 400 for broken XML, entity declarations, or a document that is
 * not <rss><channel>.
 */
export class WxrReader {
  private readonly parser = new SaxesParser();
  private readonly stack: XmlElement[] = [];
  private done: XmlElement[] = [];
  private depth = 0;
  private channel = false;
  private started = false;

  constructor() {
    const p = this.parser;
    p.on('doctype', (doctype) => {
      if (/<!ENTITY/i.test(doctype)) throw badRequest('The file declares XML entities in a DOCTYPE, which is not allowed in a WordPress export');
    });
    p.on('opentag', (tag) => {
      this.depth += 1;
      if (this.depth === 1 && tag.name !== 'rss') throw notWxr();
      if (this.depth === 2 && tag.name === 'channel') this.channel = true;
      if (this.depth < 3 || !this.channel) return;
      const el: XmlElement = { name: tag.name, attrs: tag.attributes, children: [], text: '' };
      this.stack.at(-1)?.children.push(el);
      this.stack.push(el);
    });
    const text = (t: string) => {
      const top = this.stack.at(-1);
      if (top) top.text += t;
    };
    p.on('text', text);
    p.on('cdata', text);
    p.on('closetag', () => {
      if (this.depth >= 3 && this.stack.length > 0) {
        const el = this.stack.pop()!;
        if (this.stack.length === 0) this.done.push(el);
      }
      this.depth -= 1;
    });
  }

  write(chunk: string): void {
    this.run(() => this.parser.write(this.started ? chunk : chunk.replace(/^\uFEFF/, '')));
    this.started = true;
  }

  /** Ends the document: throws unless it was a whole <rss><channel>. */
  close(): void {
    this.run(() => this.parser.close());
    if (!this.channel) throw notWxr();
  }

  take(): XmlElement[] {
    const out = this.done;
    this.done = [];
    return out;
  }

  private run(step: () => void): void {
    try {
      step();
    } catch (err) {
      if (err instanceof Error && !('status' in err)) throw badRequest(`The file is not well-formed XML (${err.message.split('\n', 1)[0]})`);
      throw err;
    }
  }
}

const notWxr = () => badRequest('This is not a WordPress export: the file has no <rss><channel>');

/** The children of <channel> in a WXR file, read in slices of 256 KB. */
export async function* readWxrFile(path: string): AsyncGenerator<XmlElement> {
  const reader = new WxrReader();
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
    reader.write(chunk as string);
    yield* reader.take();
  }
  reader.close();
  yield* reader.take();
}

/** The items of a whole WXR document held in memory (small exports, tests). */
export function parseWxr(source: string): WxrItem[] {
  const reader = new WxrReader();
  reader.write(source);
  reader.close();
  return reader
    .take()
    .filter((el) => el.name === 'item')
    .map(toItem);
}
