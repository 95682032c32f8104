// Writes the posts and episodes of another publishing service (Substack, Ghost) into this site.
// The readers of each export (substack/, ghost/) turn it into SourceItems, checking the whole
// file before anything is written; this module writes them one by one, each in a transaction of
// its own. An item whose slug exists here already is skipped, so importing the same export
// again creates nothing. Images (and audio, when asked) are brought over through the import's
// address guard; what cannot be fetched stays at its old address and is named in the report.
import { eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { blogPosts, podcastEpisodes } from '#db/schema/content.ts';
import { setPostTags } from '#server/content/post-tags.ts';
import { addRedirects } from '#server/content/redirects.ts';
import { htmlToText, readTimeOf, sanitizePostHtml } from '#server/html/sanitize.ts';
import { MediaFetcher } from '#server/migration/wordpress/media.ts';
import { slugify, truncate } from '#shared/format.ts';
import { PostInputSchema } from '#shared/schemas/blog-post.ts';
import { EpisodeInputSchema } from '#shared/schemas/podcast-episode.ts';
import type { PublicationImportResultDto } from '#shared/schemas/publication-import.ts';

export type PublicationSource = 'substack' | 'ghost';

/** One post, page or episode of the export, as its reader understood it. */
export interface SourceItem {
  /** How the report names it at the source ('Substack post 123401'). */
  label: string;
  kind: 'post' | 'page' | 'episode';
  title: string;
  slug: string;
  /** Plain text. */
  excerpt: string;
  /** The body as the source wrote it, cleaned of the source's own widgets; sanitised here. */
  html: string;
  status: 'published' | 'draft' | 'scheduled';
  /** When it went (or goes) public, or was written for a draft. */
  date: Date | null;
  featuredImage: string | null;
  /** The first becomes the category. */
  tags: string[];
  /** Where it lived at the source: each answers 301 to its new address. */
  oldPaths: string[];
  /** Why it is kept as a draft though the source showed it (paid only, a page). */
  draftReason?: string | undefined;
  /** An episode's audio. */
  audioUrl?: string | undefined;
  /** Why it is not imported at all. */
  skip?: string | undefined;
  /** Said in the report after what was imported. */
  note?: string | undefined;
}

export interface WriteOptions {
  authorId: string;
  source: PublicationSource;
  /** Episodes' audio is downloaded and served here, rather than left at its old address. */
  downloadAudio: boolean;
  onProgress?: ((done: number, total: number) => void) | undefined;
}

export type PublicationResult = PublicationImportResultDto;

/** Writes `items`; answers the counts and the report. */
export async function writeItems(db: Db, items: Iterable<SourceItem> | AsyncIterable<SourceItem>, total: number, options: WriteOptions): Promise<PublicationResult> {
  const media = new MediaFetcher(db, options.authorId);
  const result: PublicationResult = { imported: 0, skipped: 0, failed: 0, keptAsDrafts: [], media: { downloaded: 0, reused: 0, failed: 0 }, redirects: 0, report: [] };
  const line = (kind: 'imported' | 'skipped' | 'failed', item: SourceItem, text: string) => {
    result[kind] += 1;
    result.report.push(`${kind}: ${item.label} '${item.title}': ${text}`);
  };
  let done = 0;
  for await (const item of items) {
    try {
      await writeItem(db, item, media, options, result, line);
    } catch (err) {
      line('failed', item, err instanceof Error ? err.message : String(err));
    }
    done += 1;
    options.onProgress?.(done, total);
  }
  result.media = { downloaded: media.downloaded, reused: media.reused, failed: media.failures.length };
  for (const f of media.failures) result.report.push(`file left at its old address: ${f.url}: ${f.reason}`);
  return result;
}

type Line = (kind: 'imported' | 'skipped' | 'failed', item: SourceItem, text: string) => void;

async function writeItem(db: Db, item: SourceItem, media: MediaFetcher, options: WriteOptions, result: PublicationResult, line: Line): Promise<void> {
  if (item.skip) return line('skipped', item, item.skip);
  const slug = slugOf(item);
  const isEpisode = item.kind === 'episode';
  const table = isEpisode ? podcastEpisodes : blogPosts;
  if (db.select({ id: table.id }).from(table).where(eq(table.slug, slug)).get()) {
    return line('skipped', item, `${isEpisode ? 'an episode' : 'a post'} with the slug '${slug}' exists here already`);
  }
  const content = await localImages(sanitizePostHtml(item.html).replace(/<p>(?:\s|<br \/>|&nbsp;)*<\/p>/g, ''), media);
  const publicAtSource = item.status === 'published';
  const kept = item.draftReason !== undefined;
  const isPublished = publicAtSource && !kept;
  const scheduledAt = item.status === 'scheduled' && !kept && item.date && item.date.getTime() > Date.now() ? item.date : null;
  const now = new Date();
  const createdAt = item.date ?? now;
  const path = `/${isEpisode ? 'podcast' : 'blog'}/${slug}`;

  if (isEpisode) {
    const audioUrl = item.audioUrl && options.downloadAudio ? ((await media.get(item.audioUrl, 'audio')) ?? item.audioUrl) : item.audioUrl;
    const parsed = EpisodeInputSchema.safeParse({
      title: fit(item.title, 255),
      slug,
      description: fit(item.excerpt || htmlToText(content), 1000) || null,
      audioUrl,
      showNotes: content || null,
      isPublished,
    });
    if (!parsed.success) return line('failed', item, parsed.error.issues.map((i) => i.message).join('; '));
    const ep = parsed.data;
    db.transaction((tx) => {
      tx.insert(podcastEpisodes)
        .values({
          title: ep.title,
          slug,
          description: ep.description,
          audioUrl: ep.audioUrl,
          showNotes: ep.showNotes,
          isPublished,
          publishedAt: isPublished ? createdAt : null,
          scheduledAt,
          createdAt,
          updatedAt: now,
        })
        .run();
      result.redirects += addRedirects(tx, item.oldPaths, path, options.source);
    });
  } else {
    const featuredImage = item.featuredImage ? ((await media.get(item.featuredImage, 'image')) ?? item.featuredImage) : null;
    const parsed = PostInputSchema.safeParse({
      title: fit(item.title, 255),
      slug,
      excerpt: fit(item.excerpt, 500),
      content,
      featuredImage,
      category: fit(item.kind === 'page' ? 'Page' : item.tags[0]?.trim() || 'General', 100),
      isPublished,
    });
    if (!parsed.success) return line('failed', item, parsed.error.issues.map((i) => i.message).join('; '));
    const post = parsed.data;
    db.transaction((tx) => {
      const { id } = tx
        .insert(blogPosts)
        .values({
          title: post.title,
          slug,
          excerpt: post.excerpt,
          content: post.content,
          featuredImage: post.featuredImage ?? null,
          category: post.category,
          isPublished,
          authorId: options.authorId,
          readTime: readTimeOf(post.content),
          publishedAt: isPublished ? createdAt : null,
          scheduledAt,
          createdAt,
          updatedAt: now,
        })
        .returning({ id: blogPosts.id })
        .get();
      setPostTags(tx, id, item.tags);
      result.redirects += addRedirects(tx, item.oldPaths, path, options.source);
    });
  }
  if (kept && publicAtSource) result.keptAsDrafts.push({ title: item.title, slug, reason: item.draftReason! });
  const state = isPublished ? 'published' : scheduledAt ? `scheduled for ${scheduledAt.toISOString()}` : kept ? `a draft (${item.draftReason})` : 'a draft';
  line('imported', item, `${isEpisode ? 'an episode' : 'a post'} at ${path}, ${state}${item.note ? `; ${item.note}` : ''}`);
}

/** Brings over every http(s) image the HTML shows, and points the HTML at the copies. */
async function localImages(html: string, media: MediaFetcher): Promise<string> {
  const refs = new Map<string, string>();
  for (const m of html.matchAll(/<img\b[^>]*?\ssrc="([^"]+)"/g)) {
    const url = m[1]!.replaceAll('&amp;', '&');
    if (/^https?:\/\//i.test(url)) refs.set(m[1]!, url);
  }
  if (refs.size === 0) return html;
  const local = new Map<string, string>();
  await Promise.all(
    [...refs].map(async ([attr, url]) => {
      const got = await media.get(url, 'image');
      if (got) local.set(attr, got);
    }),
  );
  // Links to the same file (a click to enlarge) follow it here.
  return html.replace(/\b(src|href)="([^"]+)"/g, (whole, name: string, value: string) => (local.has(value) ? `${name}="${local.get(value)}"` : whole));
}

function slugOf(item: SourceItem): string {
  if (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(item.slug)) return item.slug.slice(0, 255);
  return (slugify(item.slug) || slugify(item.title) || slugify(item.label)).slice(0, 255);
}

/** Text cut to `max` characters with '...' when it is longer. */
const fit = (text: string, max: number) => (text.length > max ? truncate(text, max - 3) : text);
