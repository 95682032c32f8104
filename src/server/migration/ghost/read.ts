// A Ghost export (Settings → Advanced → Import/Export → Export content): one JSON file holding
// the site's tables, `{db: [{meta, data: {posts, tags, posts_tags, ...}}]}`. Its posts and pages
// become SourceItems; the whole file is checked before anything is written. A post's body is its
// HTML; without HTML, its lexical or else its mobiledoc rendered by Ghost's own renderers.
import { readFile } from 'node:fs/promises';
import { badRequest } from '#server/http/errors.ts';
import { htmlToText } from '#server/html/sanitize.ts';
import type { SourceItem } from '#server/migration/publication.ts';

/** The largest export accepted: years of posts as HTML, lexical and plain text stay well below it. */
export const MAX_GHOST_BYTES = 50 * 1024 * 1024;

interface GhostPost {
  id: string;
  title?: string | null;
  slug?: string | null;
  html?: string | null;
  lexical?: string | null;
  mobiledoc?: string | null;
  feature_image?: string | null;
  type?: string | null;
  page?: boolean | number | null;
  status?: string | null;
  visibility?: string | null;
  custom_excerpt?: string | null;
  created_at?: string | null;
  published_at?: string | null;
}

interface GhostTag {
  id: string;
  name?: string | null;
  visibility?: string | null;
}

interface GhostPostTag {
  post_id: string;
  tag_id: string;
  sort_order?: number | null;
}

const NOT_GHOST = 'This is not a Ghost export: it has no db[0].data.posts list (export it from Ghost: Settings → Advanced → Import/Export → Export content)';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const arrayOf = <T>(v: unknown): T[] => (Array.isArray(v) ? (v.filter(isObject) as T[]) : []);

export interface GhostOptions {
  /** The old site's address: Ghost writes its own address as `__GHOST_URL__`, which images need to be fetched. */
  siteUrl: string | null;
}

/** Reads and checks a Ghost export file: 400 (nothing written) when it is not one. */
export async function readGhostExport(file: string, options: GhostOptions): Promise<SourceItem[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw badRequest(`The file is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Ghost's own export wraps the tables in db[0]; some tools write the inner object alone.
  const db = isObject(json) && Array.isArray(json.db) ? (json.db[0] as unknown) : json;
  const data = isObject(db) ? db.data : undefined;
  if (!isObject(data) || !Array.isArray(data.posts)) throw badRequest(NOT_GHOST);
  const posts = arrayOf<GhostPost>(data.posts);
  if (posts.some((p) => typeof p.id !== 'string' && typeof p.id !== 'number')) throw badRequest('This Ghost export is damaged: a post has no id');

  const tags = new Map(arrayOf<GhostTag>(data.tags).map((t) => [String(t.id), t]));
  const tagsOf = new Map<string, { name: string; order: number }[]>();
  for (const pt of arrayOf<GhostPostTag>(data.posts_tags)) {
    const tag = tags.get(String(pt.tag_id));
    // Internal tags ('#hash') organise Ghost's own themes; they mean nothing to readers.
    if (!tag?.name || tag.visibility === 'internal' || tag.name.startsWith('#')) continue;
    const list = tagsOf.get(String(pt.post_id)) ?? [];
    list.push({ name: tag.name, order: pt.sort_order ?? list.length });
    tagsOf.set(String(pt.post_id), list);
  }
  const site = options.siteUrl?.replace(/\/+$/, '') ?? '';
  const items: SourceItem[] = [];
  for (const p of posts) {
    const tagNames = (tagsOf.get(String(p.id)) ?? []).sort((a, b) => a.order - b.order).map((t) => t.name);
    items.push(toItem(p, await bodyOf(p), tagNames, site));
  }
  return items;
}

type Body = { html: string } | { skip: string };

/** The post's HTML as Ghost serves it: its html, else its lexical, else its mobiledoc rendered. */
async function bodyOf(p: GhostPost): Promise<Body> {
  if (p.html?.trim()) return { html: p.html };
  const editor = p.lexical ? 'lexical' : p.mobiledoc ? 'mobiledoc' : null;
  if (!editor) return { skip: 'it has no content' };
  try {
    const render = await import('./render.ts');
    const html = editor === 'lexical' ? await render.renderLexical(p.lexical!) : render.renderMobiledoc(p.mobiledoc!);
    return html.trim() ? { html } : { skip: 'it has no content' };
  } catch (err) {
    return { skip: `its ${editor} (Ghost's editor data, the only body it has) could not be read: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** Ghost's own address in links becomes a path of this site (answered by the redirects); elsewhere (images) the old site's address. */
function withSiteUrl(html: string, site: string): string {
  return html.replace(/(\bhref=["'])__GHOST_URL__(?=\/)/g, '$1').replaceAll('__GHOST_URL__', site);
}

function toItem(p: GhostPost, body: Body, tags: string[], site: string): SourceItem {
  const title = (p.title ?? '').trim() || '(no title)';
  const slug = (p.slug ?? '').trim();
  const isPage = p.type === 'page' || p.page === true || p.page === 1;
  const status = p.status === 'published' ? 'published' : p.status === 'scheduled' ? 'scheduled' : 'draft';
  const item: SourceItem = {
    label: `Ghost ${isPage ? 'page' : 'post'} ${p.id}`,
    kind: isPage ? 'page' : 'post',
    title,
    slug,
    excerpt: htmlToText(p.custom_excerpt ?? ''),
    html: 'html' in body ? withSiteUrl(body.html, site) : '',
    status,
    date: dateOf(status === 'draft' ? (p.created_at ?? p.published_at) : (p.published_at ?? p.created_at)),
    featuredImage: p.feature_image ? withSiteUrl(p.feature_image, site) : null,
    tags,
    oldPaths: slug ? [`/${slug}/`] : [],
  };
  if (!site && /__GHOST_URL__\/content\//.test(`${'html' in body ? body.html : ''} ${p.feature_image ?? ''}`)) {
    item.note = "its images stay at the old site's paths (/content/images/...), which do not exist here: delete it and import again giving the old site's address to bring them over";
  }
  if ('skip' in body) {
    item.skip = body.skip;
  } else if (p.status === 'sent') {
    // Ghost 5's e-mail-only posts were never on the web.
    item.draftReason = 'sent by e-mail only on Ghost';
    item.status = 'published';
  } else if (isPage) {
    item.draftReason = 'a page on Ghost: publish it here if it belongs on the blog';
  } else if (p.visibility && p.visibility !== 'public') {
    item.draftReason = `for ${p.visibility === 'members' ? 'members' : 'paying members'} only on Ghost, and this site has no members-only posts`;
  }
  if (item.featuredImage && !/^https?:\/\//i.test(item.featuredImage)) item.featuredImage = null;
  return item;
}

function dateOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}
