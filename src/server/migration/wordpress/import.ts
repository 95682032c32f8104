// The import itself: a WXR file on disk into a given database. No server state here: it runs in
// a worker thread (wordpress-import-worker.ts) so a large export never stalls the server.
//
// Two passes over the file, each streamed: the first checks the whole document (nothing is
// written when it is broken), counts the items and learns the attachments and authors; the
// second imports item by item, each in a transaction of its own. Items are keyed by their
// WordPress id, so running the same file again updates what changed there (unless it was
// edited here since) and skips the rest.
import { createHash } from 'node:crypto';
import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { users } from '#db/schema/auth.ts';
import { blogPosts, comments, podcastEpisodes } from '#db/schema/content.ts';
import { wordpressItems } from '#db/schema/imports.ts';
import { setPostTags } from '#server/content/post-tags.ts';
import { addRedirects } from '#server/content/redirects.ts';
import { htmlToText, readTimeOf, sanitizePostHtml } from '#server/html/sanitize.ts';
import { slugify, truncate } from '#shared/format.ts';
import { PostInputSchema, type ImportResultDto, type KeptPrivateDto } from '#shared/schemas/blog-post.ts';
import { EpisodeInputSchema } from '#shared/schemas/podcast-episode.ts';
import { autop } from './autop.ts';
import { MediaFetcher } from './media.ts';
import { readWxrFile, toAuthor, toItem, type WxrComment, type WxrItem } from './parse.ts';

export type KeptPrivate = KeptPrivateDto;
export type ImportResult = ImportResultDto;

export interface ImportOptions {
  /** The importing admin: the author of posts whose WordPress author is no user here. */
  authorId: string;
  /** Episodes' audio is downloaded and served here, rather than left at its old address. */
  downloadAudio: boolean;
  fileName: string;
  /** Called after each item. */
  onProgress?: (done: number, total: number) => void;
}

/** Statuses of posts that are imported, and whether they stay public. */
const IMPORTABLE_STATUS: Record<string, boolean> = { publish: true, draft: false, pending: false, private: false, future: false };
const SKIP_REASONS: Record<string, string> = { attachment: 'an attachment (its file comes with the posts that use it)', nav_menu_item: 'a menu item', revision: 'a revision' };

/** Maps WordPress's default category and anything blank to the site's default. */
function categoryOf(name: string | null): string {
  if (!name || /^uncategori[sz]ed$/i.test(name)) return 'General';
  return name.slice(0, 100);
}

/** What the first pass learns about the export. */
interface Scan {
  total: number;
  site: string;
  hosts: Set<string>;
  attachments: Map<number, string>;
  authors: Map<string, string>;
}

async function scan(file: string): Promise<Scan> {
  const found: Scan = { total: 0, site: '', hosts: new Set(), attachments: new Map(), authors: new Map() };
  let blog = '';
  for await (const el of readWxrFile(file)) {
    if (el.name === 'item') {
      found.total += 1;
      const item = toItem(el);
      if (item.type === 'attachment' && item.attachmentUrl) found.attachments.set(item.id, item.attachmentUrl);
    } else if (el.name === 'wp:base_site_url') found.site = el.text.trim();
    else if (el.name === 'wp:base_blog_url') blog = el.text.trim();
    else if (el.name === 'wp:author') {
      const author = toAuthor(el);
      if (author.login) found.authors.set(author.login, author.email);
    }
  }
  // Files are fetched only from the old site itself and the hosts its attachments live on.
  for (const url of [found.site, blog, ...found.attachments.values()]) {
    const host = hostOf(url);
    if (host) found.hosts.add(host);
  }
  found.site ||= blog || 'wordpress';
  return found;
}

function hostOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.host : null;
  } catch {
    return null;
  }
}

/** The end report, line by line, with the counts the API answers. */
class Report {
  readonly result: ImportResult = {
    imported: 0,
    updated: 0,
    skipped: 0,
    failed: 0,
    keptPrivate: [],
    comments: { imported: 0, skipped: 0 },
    media: { downloaded: 0, reused: 0, failed: 0 },
    redirects: 0,
  };
  readonly lines: Record<'imported' | 'updated' | 'skipped' | 'failed', string[]> = { imported: [], updated: [], skipped: [], failed: [] };
  readonly skippedComments: Record<string, number> = {};

  add(kind: keyof Report['lines'], item: WxrItem, text: string): void {
    this.result[kind] += 1;
    this.lines[kind].push(`${item.type || 'item'} '${item.title || '(no title)'}' (WordPress id ${item.id}): ${text}`);
  }

  text(fileName: string, media: MediaFetcher, started: Date): string {
    const r = this.result;
    const skippedComments = Object.entries(this.skippedComments).map(([why, n]) => `${n} ${why}`);
    const out = [
      `WordPress import of ${fileName}`,
      `Started ${started.toISOString()}, finished ${new Date().toISOString()}`,
      '',
      `Imported: ${r.imported}`,
      `Updated: ${r.updated}`,
      `Skipped: ${r.skipped}`,
      `Failed: ${r.failed}`,
      `Comments: ${r.comments.imported} imported${skippedComments.length ? `, skipped ${skippedComments.join(', ')}` : ''}`,
      `Files: ${media.downloaded} downloaded, ${media.reused} already here, ${media.failures.length} could not be fetched`,
      `Redirects added: ${r.redirects}`,
    ];
    const section = (title: string, lines: string[]) => (lines.length ? ['', `${title}:`, ...lines.map((l) => `  ${l}`)] : []);
    out.push(
      ...section('Failed', this.lines.failed),
      ...section(
        'Files that could not be fetched (left at their old address)',
        media.failures.map((f) => `${f.url}: ${f.reason}`),
      ),
      ...section(
        'Kept as drafts, as they were not public on WordPress',
        r.keptPrivate.map((k) => `'${k.title}' (${k.reason})`),
      ),
      ...section('Imported', this.lines.imported),
      ...section('Updated', this.lines.updated),
      ...section('Skipped', this.lines.skipped),
    );
    return `${out.join('\n')}\n`;
  }
}

/** Imports a WXR file; answers the counts and the report. Throws a 400 (writing nothing) when the file is not a well-formed export. */
export async function importWxrFile(db: Db, file: string, options: ImportOptions): Promise<{ result: ImportResult; report: string }> {
  const started = new Date();
  const found = await scan(file);
  const media = new MediaFetcher(db, options.authorId);
  const report = new Report();
  const importer = new Importer(db, found, media, report, options);
  let done = 0;
  for await (const el of readWxrFile(file)) {
    if (el.name !== 'item') continue;
    const item = toItem(el);
    try {
      await importer.item(item);
    } catch (err) {
      report.add('failed', item, err instanceof Error ? err.message : String(err));
    }
    done += 1;
    options.onProgress?.(done, found.total);
  }
  Object.assign(report.result.media, { downloaded: media.downloaded, reused: media.reused, failed: media.failures.length });
  return { result: report.result, report: report.text(options.fileName, media, started) };
}

type Kind = 'post' | 'page' | 'episode';

class Importer {
  private readonly authorIds = new Map<string, string>();
  private readonly db: Db;
  private readonly found: Scan;
  private readonly media: MediaFetcher;
  private readonly report: Report;
  private readonly options: ImportOptions;

  constructor(db: Db, found: Scan, media: MediaFetcher, report: Report, options: ImportOptions) {
    this.db = db;
    this.found = found;
    this.media = media;
    this.report = report;
    this.options = options;
  }

  async item(item: WxrItem): Promise<void> {
    const skip = this.skipReason(item);
    if (skip) return this.report.add('skipped', item, skip);
    if (item.type === 'post' && audioOf(item)) return this.episode(item);
    return this.post(item, item.type === 'page' ? 'page' : 'post');
  }

  private skipReason(item: WxrItem): string | null {
    if (SKIP_REASONS[item.type]) return SKIP_REASONS[item.type]!;
    if (item.type !== 'post' && item.type !== 'page') return `of type '${item.type}', which has no place here`;
    if (item.status === 'trash') return 'in the trash';
    if (!Object.hasOwn(IMPORTABLE_STATUS, item.status)) return `its status '${item.status}' is not imported`;
    return null;
  }

  private mapped(kind: Kind | 'comment', wpId: number) {
    if (!wpId) return undefined;
    return this.db
      .select()
      .from(wordpressItems)
      .where(and(eq(wordpressItems.site, this.found.site), eq(wordpressItems.kind, kind), eq(wordpressItems.wpId, wpId)))
      .get();
  }

  /**
   * What an earlier import of this item left (`find` reads the row it made): that row, to
   * write over, or the reason to leave it alone (deleted here, unchanged there, or edited
   * here since). Nothing for an item not imported before.
   */
  private earlier(kind: Kind, item: WxrItem, hash: string, find: (id: number) => { id: number; updatedAt: Date } | undefined): { existing?: { id: number }; keep?: string } {
    const map = this.mapped(kind, item.id);
    if (!map) return {};
    const row = find(map.localId);
    if (!row) return { keep: 'deleted here after an earlier import: left deleted' };
    if (map.hash === hash) return { existing: row, keep: 'unchanged since the last import' };
    if (row.updatedAt.getTime() > map.importedAt.getTime() + 1000) return { existing: row, keep: 'edited here since the last import: left as it is' };
    return { existing: row };
  }

  private remember(tx: Pick<Db, 'insert'>, kind: Kind | 'comment', wpId: number, localId: number, hash: string, at: Date): void {
    if (!wpId) return;
    tx.insert(wordpressItems)
      .values({ site: this.found.site, kind, wpId, localId, hash, importedAt: at })
      .onConflictDoUpdate({ target: [wordpressItems.site, wordpressItems.kind, wordpressItems.wpId], set: { localId, hash, importedAt: at } })
      .run();
  }

  private async post(item: WxrItem, kind: 'post' | 'page'): Promise<void> {
    const hash = digest(item, kind);
    const { existing, keep } = this.earlier(kind, item, hash, (id) => this.db.select({ id: blogPosts.id, updatedAt: blogPosts.updatedAt }).from(blogPosts).where(eq(blogPosts.id, id)).get());
    if (keep) {
      if (existing) {
        this.comments(existing.id, item.comments);
        if (await this.retryFeaturedImage(existing.id, item)) return this.report.add('updated', item, `${keep}; its featured image, left at its old address before, is now served here`);
      }
      return this.report.add('skipped', item, keep);
    }
    // A password-protected or private post was not for everyone to read: it never goes public
    // by itself here, whatever its status says. Pages wait for the owner to decide.
    const hidden: KeptPrivate['reason'] | null = item.password !== '' ? 'password-protected' : item.status === 'private' ? 'private' : null;
    const slug = slugOf(item);
    if (!existing && this.db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, slug)).get()) {
      return this.report.add('skipped', item, `a post with the slug '${slug}' exists here already`);
    }
    const scheduledAt = item.status === 'future' && item.date && item.date.getTime() > Date.now() && !hidden && kind === 'post' ? item.date : null;
    const isPublished = kind === 'post' && IMPORTABLE_STATUS[item.status] === true && !hidden;
    const content = await this.localMedia(cleanHtml(item.content));
    const thumbnail = this.thumbnailOf(item);
    // A featured image that cannot be fetched stays at its old address, like an inline one.
    const localThumbnail = thumbnail ? await this.media.get(thumbnail, 'image') : null;
    const featuredImage = localThumbnail ?? thumbnail ?? null;
    const parsed = PostInputSchema.safeParse({
      title: fit(titleOf(item), 255),
      slug,
      excerpt: fit(htmlToText(item.excerpt), 500),
      content,
      featuredImage,
      category: kind === 'page' ? 'Page' : categoryOf(item.category),
      isPublished,
    });
    if (!parsed.success) return this.report.add('failed', item, parsed.error.issues.map((i) => i.message).join('; '));
    const post = parsed.data;
    const now = new Date();
    const createdAt = item.date ?? now;
    const values = {
      title: post.title,
      excerpt: post.excerpt,
      content: post.content,
      featuredImage: post.featuredImage ?? null,
      category: post.category,
      isPublished: post.isPublished,
      authorId: this.authorOf(item.creator),
      readTime: readTimeOf(post.content),
      publishedAt: post.isPublished ? createdAt : null,
      scheduledAt,
      updatedAt: now,
    };
    const id = this.db.transaction((tx) => {
      const postId = existing
        ? (tx.update(blogPosts).set(values).where(eq(blogPosts.id, existing.id)).run(), existing.id)
        : tx
            .insert(blogPosts)
            .values({ ...values, slug: post.slug, createdAt })
            .returning({ id: blogPosts.id })
            .get().id;
      setPostTags(
        tx,
        postId,
        item.tags.map((t) => t.name),
      );
      if (kind === 'post') this.report.result.redirects += addRedirects(tx, oldAddresses(item, slug), `/blog/${slug}`, 'wordpress');
      this.remember(tx, kind, item.id, postId, hash, now);
      return postId;
    });
    this.comments(id, item.comments);
    if (hidden && !existing) this.report.result.keptPrivate.push({ title: post.title, slug: post.slug, reason: hidden });
    const left = thumbnail && !localThumbnail ? `; its featured image stays at its old address ${thumbnail}` : '';
    this.report.add(
      existing ? 'updated' : 'imported',
      item,
      `${kind === 'page' ? 'a draft post' : post.isPublished ? 'published' : scheduledAt ? `scheduled for ${scheduledAt.toISOString()}` : 'a draft'} at /blog/${slug}${left}`,
    );
  }

  private async episode(item: WxrItem): Promise<void> {
    const hash = digest(item, 'episode', this.options.downloadAudio);
    const { existing, keep } = this.earlier('episode', item, hash, (id) =>
      this.db.select({ id: podcastEpisodes.id, updatedAt: podcastEpisodes.updatedAt }).from(podcastEpisodes).where(eq(podcastEpisodes.id, id)).get(),
    );
    if (keep) return this.report.add('skipped', item, keep);
    const slug = slugOf(item);
    if (!existing && this.db.select({ id: podcastEpisodes.id }).from(podcastEpisodes).where(eq(podcastEpisodes.slug, slug)).get()) {
      return this.report.add('skipped', item, `an episode with the slug '${slug}' exists here already`);
    }
    const audio = audioOf(item)!;
    let audioUrl = audio.url;
    if (this.options.downloadAudio) audioUrl = (await this.media.get(audio.url, 'audio')) ?? audio.url;
    const showNotes = await this.localMedia(cleanHtml(item.content));
    const parsed = EpisodeInputSchema.safeParse({
      title: fit(titleOf(item), 255),
      slug,
      description: fit(htmlToText(item.excerpt) || htmlToText(showNotes), 1000) || null,
      audioUrl,
      duration: audio.duration,
      episodeNumber: wholeNumber(item.meta.episode_number ?? item.meta.itunes_episode),
      season: wholeNumber(item.meta.itunes_season ?? item.meta.season_number),
      showNotes: showNotes || null,
      isPublished: item.status === 'publish' && item.password === '',
    });
    if (!parsed.success) return this.report.add('failed', item, parsed.error.issues.map((i) => i.message).join('; '));
    const ep = parsed.data;
    const now = new Date();
    const createdAt = item.date ?? now;
    const values = {
      title: ep.title,
      description: ep.description,
      audioUrl: ep.audioUrl,
      duration: ep.duration,
      episodeNumber: ep.episodeNumber,
      season: ep.season,
      // Sanitised already (cleanHtml), and only pointed at this site's copies since.
      showNotes: ep.showNotes,
      isPublished: ep.isPublished,
      publishedAt: ep.isPublished ? createdAt : null,
      updatedAt: now,
    };
    this.db.transaction((tx) => {
      const id = existing
        ? (tx.update(podcastEpisodes).set(values).where(eq(podcastEpisodes.id, existing.id)).run(), existing.id)
        : tx
            .insert(podcastEpisodes)
            .values({ ...values, slug: ep.slug, createdAt })
            .returning({ id: podcastEpisodes.id })
            .get().id;
      this.report.result.redirects += addRedirects(tx, oldAddresses(item, slug), `/podcast/${slug}`, 'wordpress');
      this.remember(tx, 'episode', item.id, id, hash, now);
    });
    const where = audioUrl === audio.url ? 'its audio stays at its old address' : 'its audio is served here';
    this.report.add(existing ? 'updated' : 'imported', item, `an episode at /podcast/${slug} (${ep.isPublished ? 'published' : 'a draft'}; ${where})`);
  }

  /** The approved comments of a post not imported before; the others are counted by state. */
  private comments(postId: number, list: WxrComment[]): void {
    const skipped = this.report.skippedComments;
    for (const c of list) {
      const state = c.type && c.type !== 'comment' ? `${c.type}s` : c.approved === '1' ? null : c.approved === '0' ? 'pending' : c.approved === 'spam' ? 'spam' : 'in the trash';
      if (state) {
        skipped[state] = (skipped[state] ?? 0) + 1;
        this.report.result.comments.skipped += 1;
        continue;
      }
      if (this.mapped('comment', c.id)) continue;
      const text = htmlToText(c.content).slice(0, 10_000);
      if (!text) continue;
      this.db.transaction((tx) => {
        const { id } = tx
          .insert(comments)
          .values({ content: text, authorName: c.author.slice(0, 255) || 'Anonymous', authorEmail: c.email.slice(0, 255), blogPostId: postId, isApproved: true, createdAt: c.date ?? new Date() })
          .returning({ id: comments.id })
          .get();
        this.remember(tx, 'comment', c.id, id, '', new Date());
      });
      this.report.result.comments.imported += 1;
    }
  }

  /** The post's author here: the user with the WordPress author's e-mail or login, else the importing admin. */
  private authorOf(login: string): string {
    let id = this.authorIds.get(login);
    if (id) return id;
    const email = this.found.authors.get(login)?.toLowerCase() ?? '';
    const match = login
      ? this.db
          .select({ id: users.id })
          .from(users)
          .where(or(email ? sql`lower(${users.email}) = ${email}` : sql`0`, sql`lower(${users.username}) = ${login.toLowerCase()}`))
          .get()
      : undefined;
    id = match?.id ?? this.options.authorId;
    this.authorIds.set(login, id);
    return id;
  }

  /** The address of the item's featured image on the old site, if it has one. */
  private thumbnailOf(item: WxrItem): string | undefined {
    return this.found.attachments.get(Number(item.meta._thumbnail_id));
  }

  /**
   * For a post an earlier import left alone: when its featured image is still at the old
   * address (the old site was unreachable then), tries the download again and points the post at
   * the copy. Only the image changes, so the post still counts as not edited here.
   */
  private async retryFeaturedImage(postId: number, item: WxrItem): Promise<boolean> {
    const thumbnail = this.thumbnailOf(item);
    if (!thumbnail) return false;
    const row = this.db.select({ featuredImage: blogPosts.featuredImage }).from(blogPosts).where(eq(blogPosts.id, postId)).get();
    if (row?.featuredImage !== thumbnail) return false;
    const local = await this.media.get(thumbnail, 'image');
    if (!local) return false;
    return (
      this.db
        .update(blogPosts)
        .set({ featuredImage: local })
        .where(and(eq(blogPosts.id, postId), eq(blogPosts.featuredImage, thumbnail)))
        .run().changes > 0
    );
  }

  /** Brings over the images the HTML uses from the old site's uploads, and points it at them. */
  private async localMedia(html: string): Promise<string> {
    const refs = new Map<string, string>();
    for (const m of html.matchAll(/\b(src|href)="([^"]+)"/g)) {
      const raw = m[2]!.replaceAll('&amp;', '&');
      const url = this.oldUpload(raw, m[1] === 'href');
      if (url) refs.set(m[2]!, url);
    }
    if (refs.size === 0) return html;
    const local = new Map<string, string>();
    await Promise.all(
      [...refs].map(async ([attr, url]) => {
        const got = await this.media.get(url, 'image');
        if (got) local.set(attr, got);
      }),
    );
    return html.replace(/\b(src|href)="([^"]+)"/g, (whole, name: string, value: string) => (local.has(value) ? `${name}="${local.get(value)}"` : whole));
  }

  /** The absolute URL of an image in the old site's uploads, or null for anything else. */
  private oldUpload(value: string, isLink: boolean): string | null {
    let url: URL;
    try {
      url = new URL(value, this.found.site.startsWith('http') ? this.found.site : undefined);
    } catch {
      return null;
    }
    if (!this.found.hosts.has(url.host) || !/\/wp-content\/uploads\//.test(url.pathname)) return null;
    if (isLink && !/\.(jpe?g|png|gif|webp|avif)$/i.test(url.pathname)) return null;
    return url.href;
  }
}

/** Audio attached the way PowerPress and Seriously Simple Podcasting store it. */
function audioOf(item: WxrItem): { url: string; duration: number | null } | null {
  const lines = (item.meta.enclosure ?? '').split(/\r?\n/);
  const url = (lines[0] ?? '').trim() || (item.meta.audio_file ?? '').trim();
  if (!/^https?:\/\//i.test(url)) return null;
  const serialized = /"duration";s:\d+:"([^"]*)"/.exec(lines.slice(3).join('\n'))?.[1];
  return { url, duration: seconds(item.meta.duration ?? serialized ?? item.meta.itunes_duration ?? '') };
}

/** '1:02:03', '02:03' or '123' as seconds; null otherwise. */
function seconds(value: string): number | null {
  const parts = value.trim().split(':');
  if (parts.length > 3 || !parts.every((p) => /^\d{1,6}$/.test(p))) return null;
  const total = parts.reduce((sum, p) => sum * 60 + Number(p), 0);
  return total > 0 ? total : null;
}

function wholeNumber(value: string | undefined): number | null {
  return value && /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : null;
}

/** WordPress lets a post go without a title, and shows it as '(no title)': so does this site. */
const titleOf = (item: WxrItem) => item.title || '(no title)';

/** The classic editor's blank lines as paragraphs, sanitised, without empty paragraphs. */
const cleanHtml = (html: string) => sanitizePostHtml(autop(html)).replace(/<p>(?:\s|<br \/>|&nbsp;)*<\/p>/g, '');

function slugOf(item: WxrItem): string {
  if (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(item.slug)) return item.slug.slice(0, 255);
  return (slugify(safeDecodeURI(item.slug)) || slugify(item.title) || `wordpress-${item.id}`).slice(0, 255);
}

/** Where the item lived on WordPress: its permalink, '?p={id}', and the dated forms. */
function oldAddresses(item: WxrItem, slug: string): string[] {
  const out = [item.link];
  if (item.id) out.push(`/?p=${item.id}`);
  const d = /^(\d{4})-(\d{2})-(\d{2})/.exec(item.localDate);
  const name = item.slug || slug;
  if (d && d[1] !== '0000') out.push(`/${d[1]}/${d[2]}/${name}/`, `/${d[1]}/${d[2]}/${d[3]}/${name}/`);
  return out.filter(Boolean);
}

/** A digest of what the import reads of an item: a re-import skips it while it stays the same. */
function digest(item: WxrItem, kind: Kind, downloadAudio = false): string {
  const { comments: _comments, ...rest } = item;
  return createHash('sha256')
    .update(JSON.stringify({ kind, downloadAudio, ...rest }))
    .digest('hex');
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
