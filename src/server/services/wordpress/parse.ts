// WordPress exports (WXR): parsing into items, refusing anything that is not well-formed WXR
// (and any DOCTYPE that declares entities). No entity expansion at all.
import { decodeHTML, decodeXML } from 'entities';
import * as fxp from 'fast-xml-parser';
import { badRequest } from '#server/http/errors.ts';

type XmlNode = string | number | boolean | { '#text'?: unknown; '#cdata'?: unknown; [key: string]: unknown } | undefined;

export interface WxrItem {
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
const { XMLValidator } = fxp as unknown as { XMLValidator: { validate: (xml: string) => true | { err: { msg: string; line: number; col: number } } } };

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
    doc = parser.parse(xml) as typeof doc;
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
