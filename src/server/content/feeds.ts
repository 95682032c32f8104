// Feeds and crawler files: blog RSS, the podcast RSS that Apple Podcasts and Spotify read,
// the sitemap and robots.txt. XML is built with fast-xml-builder (escaping included).
import XMLBuilder from 'fast-xml-builder';
import { v5 as uuidv5 } from 'uuid';
import { eq, inArray, max } from 'drizzle-orm';
import { statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { publishedSite } from '#server/site/current.ts';
import type { SiteDocument } from '#shared/schemas/site.ts';
import { episodeAudioPath } from '#shared/format.ts';
import { blogPosts, podcastEpisodes } from '#db/schema/content.ts';
import { storedFiles } from '#db/schema/storage.ts';
import { siteSettings } from '#db/schema/settings.ts';
import { env } from '#server/env.ts';
import { getDb } from '#server/db.ts';
import { resolveUpload } from '#server/media/local.ts';
import { SERVE_TYPES } from '#server/media/upload-policy.ts';
import { listPublishedIssues, listPublishedIssuesWithContent } from '#server/broadcasts/service.ts';
import { listPosts, PUBLIC_ORDER } from './blog-posts.ts';
import { legacyEpisodeGuid, legacyPostGuid } from './legacy-guids.ts';
import { listEpisodes } from './podcast-episodes.ts';
import { absoluteUrls, htmlToText, videosAsLinks } from '#server/html/sanitize.ts';

// Characters XML 1.0 does not allow anywhere (C0 controls other than tab, CR and LF, lone
// surrogates, U+FFFE/U+FFFF): one in a title or post would make the whole feed unreadable.
// Markup never contains them, so dropping them from the built document drops them from every
// text, attribute and CDATA section at once.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\p{Cs}]/gu;

// Text and attributes are escaped and CDATA sections split around ']]>'; an attribute whose
// value is 'true' keeps it (by default the builder writes a bare `isPermaLink`, which is not XML).
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  cdataPropName: '#cdata',
  suppressBooleanAttributes: false,
  suppressEmptyNode: true,
  processEntities: true,
  format: false,
});

const xml = (root: Record<string, unknown>) => `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(root)}`.replace(NOT_XML, '');
const rfc2822 = (d: Date) => d.toUTCString();
const abs = (path: string) => new URL(path, `${env().SITE_URL}/`).href;

interface RssChannel {
  title: string;
  /** Paths on the site: the channel's page and the feed itself. */
  page: string;
  self: string;
  description: string;
  lastBuild: Date;
  items: { title: string; path: string; guid: { '#text': string; '@_isPermaLink': 'true' | 'false' }; published: Date; category?: string; summary: string | null; html: string }[];
}

/** An RSS 2.0 document with each item's full HTML (links made absolute) in content:encoded. */
function rss(c: RssChannel): string {
  const site = env().SITE_URL;
  return xml({
    rss: {
      '@_version': '2.0',
      '@_xmlns:content': 'http://purl.org/rss/1.0/modules/content/',
      '@_xmlns:atom': 'http://www.w3.org/2005/Atom',
      channel: {
        title: c.title,
        link: `${site}${c.page}`,
        description: c.description,
        language: 'en-us',
        'atom:link': { '@_href': `${site}${c.self}`, '@_rel': 'self', '@_type': 'application/rss+xml' },
        lastBuildDate: rfc2822(c.lastBuild),
        item: c.items.map((i) => {
          const link = `${site}${i.path}`;
          return {
            title: i.title,
            link,
            guid: i.guid,
            pubDate: rfc2822(i.published),
            ...(i.category ? { category: i.category } : {}),
            description: i.summary?.trim() || htmlToText(i.html).slice(0, 300),
            'content:encoded': { '#cdata': absoluteUrls(videosAsLinks(i.html), link) },
          };
        }),
      },
    },
  });
}

/**
 * A feed's headers: apps and CDNs may keep it five minutes, unless it shows an admin's draft
 * (Preview), which no one else may be given.
 */
export const feedHeaders = (preview: boolean) => ({ 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': preview ? 'private, no-store' : 'public, max-age=300' });

/** RSS 2.0 of published posts, newest first. */
export function blogFeed(doc: SiteDocument = publishedSite(), limit = 50): string {
  const site = env().SITE_URL;
  const posts = listPosts({ limit });
  return rss({
    title: `${doc.brand.name} — Leadership Insights`,
    page: '/blog',
    self: '/rss.xml',
    description: doc.brand.blurb,
    lastBuild: posts[0]?.updatedAt ?? new Date(),
    items: posts.map((p) => ({
      title: p.title,
      path: `/blog/${p.slug}`,
      // A row written behind the server's back since it started has none stored yet.
      guid: { '#text': p.guid ?? legacyPostGuid(site, p.slug), '@_isPermaLink': 'false' },
      published: p.publishedAt ?? p.createdAt,
      category: p.category || 'General',
      summary: p.excerpt,
      html: p.content,
    })),
  });
}

/** RSS 2.0 of the newsletter's public archive: sent issues not kept for subscribers, newest first. */
export function newsletterFeed(doc: SiteDocument = publishedSite(), limit = 50): string {
  const site = env().SITE_URL;
  const issues = listPublishedIssuesWithContent(getDb(), limit);
  return rss({
    title: `${doc.newsletter.name} — ${doc.brand.name}`,
    page: '/newsletter/archive',
    self: '/newsletter/rss.xml',
    description: `Every issue of ${doc.newsletter.name}.`,
    lastBuild: issues[0]?.startedAt ?? new Date(),
    items: issues.map((i) => ({
      title: i.subject,
      path: `/newsletter/${i.slug}`,
      guid: { '#text': `${site}/newsletter/${i.slug}`, '@_isPermaLink': 'true' },
      published: i.startedAt ?? new Date(),
      summary: i.preheader,
      html: i.content,
    })),
  });
}

/** The byte length of a regular file, or null when there is none. */
function fileSize(file: string): number | null {
  try {
    const st = statSync(file);
    return st.isFile() ? st.size : null;
  } catch {
    return null;
  }
}

/** The byte length of an audio file the site serves itself, or null for one it cannot see. */
function localFileSize(url: string): number | null {
  if (url.startsWith('/uploads/')) {
    const file = resolveUpload(url.slice('/uploads/'.length));
    return file ? fileSize(file) : null;
  }
  if (!url.startsWith('/') || url.includes('..')) return null;
  for (const dir of ['dist/client', 'public']) {
    const size = fileSize(resolve(dir, `.${url}`));
    if (size !== null) return size;
  }
  return null;
}

/** Length and type of uploaded files the site does not serve itself (UploadThing), by URL. */
function remoteFiles(urls: string[]): Map<string, { size: number; contentType: string }> {
  const remote = urls.filter((u) => /^https?:/.test(u));
  if (remote.length === 0) return new Map();
  const rows = getDb().select({ url: storedFiles.url, size: storedFiles.size, contentType: storedFiles.contentType }).from(storedFiles).where(inArray(storedFiles.url, remote)).all();
  return new Map(rows.map((r) => [r.url, r]));
}

/** The byte length of an episode's audio file, wherever it is kept; null when the site cannot know it. */
export function audioFileSize(url: string): number | null {
  return remoteFiles([url]).get(url)?.size ?? localFileSize(url);
}

/** An audio file's content type from its name (MP3 when it has none the site knows). */
export function audioType(url: string): string {
  const ext = extname(new URL(url, 'http://x').pathname).slice(1).toLowerCase();
  return SERVE_TYPES[ext] ?? 'audio/mpeg';
}

/** A transcript's type from its file name, as the Podcasting 2.0 namespace names it: WebVTT or SRT. */
const transcriptType = (url: string) => (/\.srt$/i.test(new URL(url, 'http://x').pathname) ? 'application/srt' : 'text/vtt');

/** The Podcasting 2.0 namespace for a show's GUID: UUIDv5 of the feed URL without its scheme. */
const PODCAST_GUID_NAMESPACE = 'ead4c236-bf58-58c6-a2c6-a6b28d128cb6';

/** The show's GUID as the Podcasting 2.0 namespace makes it: UUIDv5 of the feed URL without its scheme and trailing slashes. */
export const podcastGuidFor = (feedUrl: string) => uuidv5(feedUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, ''), PODCAST_GUID_NAMESPACE);

let showGuid: string | undefined;
/**
 * The show's GUID: made from the feed's URL the first time the feed is asked for, then kept
 * (in the database, and in memory after the first read), so that it outlives a move to
 * another domain (podcast apps follow a show by it).
 */
function podcastGuid(feedUrl: string): string {
  if (showGuid) return showGuid;
  const db = getDb();
  db.insert(siteSettings)
    .values({ key: 'podcastGuid', value: podcastGuidFor(feedUrl) })
    .onConflictDoNothing()
    .run();
  showGuid = db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, 'podcastGuid')).get()!.value as string;
  return showGuid;
}

/** Where Apple sends the feed's ownership check; null when the site has no address to give. */
export function podcastOwnerEmail(doc: SiteDocument = publishedSite()): string | null {
  return doc.podcast.ownerEmail || doc.brand.contactEmail || null;
}

/**
 * The podcast feed for Apple Podcasts and Spotify: channel artwork, category, owner and
 * explicit flag; one item per published episode that has audio, each with an enclosure of
 * the file's real byte length and type.
 */
export function podcastFeed(doc: SiteDocument = publishedSite()): string {
  const show = doc.podcast;
  const site = env().SITE_URL;
  const ownerName = show.ownerName;
  const ownerEmail = podcastOwnerEmail(doc);
  const artwork = abs(show.artwork);
  const episodes = listEpisodes().filter((ep) => ep.audioUrl);
  const remote = remoteFiles(episodes.map((ep) => ep.audioUrl!));
  const description = show.description;
  return xml({
    rss: {
      '@_version': '2.0',
      '@_xmlns:itunes': 'http://www.itunes.com/dtds/podcast-1.0.dtd',
      '@_xmlns:content': 'http://purl.org/rss/1.0/modules/content/',
      '@_xmlns:atom': 'http://www.w3.org/2005/Atom',
      '@_xmlns:podcast': 'https://podcastindex.org/namespace/1.0',
      channel: {
        title: show.title,
        link: `${site}/podcast`,
        description,
        language: 'en-us',
        copyright: `© ${new Date().getFullYear()} ${doc.brand.name}`,
        'atom:link': { '@_href': `${site}/podcast.xml`, '@_rel': 'self', '@_type': 'application/rss+xml' },
        image: { url: artwork, title: show.title, link: `${site}/podcast` },
        'itunes:image': { '@_href': artwork },
        'itunes:author': ownerName,
        // Apple sends its ownership check to this address: left out rather than made up.
        'itunes:owner': { 'itunes:name': ownerName, ...(ownerEmail ? { 'itunes:email': ownerEmail } : {}) },
        'itunes:summary': description,
        'itunes:category': { '@_text': show.category },
        'itunes:explicit': 'false',
        'itunes:type': 'episodic',
        'itunes:new-feed-url': show.newFeedUrl || undefined,
        'podcast:guid': podcastGuid(`${site}/podcast.xml`),
        'podcast:locked': { '#text': show.locked ? 'yes' : 'no', ...(ownerEmail ? { '@_owner': ownerEmail } : {}) },
        item: episodes.map((ep) => {
          // Through the site's counting address, which sends the app on to the file.
          const url = abs(episodeAudioPath(ep)!);
          const stored = remote.get(ep.audioUrl!);
          const size = stored?.size ?? localFileSize(ep.audioUrl!);
          return {
            title: ep.title,
            guid: { '#text': ep.guid ?? legacyEpisodeGuid(site, ep.id), '@_isPermaLink': 'false' },
            link: `${site}/podcast/${ep.slug}`,
            pubDate: rfc2822(ep.publishedAt ?? ep.createdAt),
            description: ep.description ?? ep.title,
            'itunes:summary': ep.description ?? ep.title,
            'content:encoded': ep.showNotes ? { '#cdata': absoluteUrls(ep.showNotes, `${site}/podcast/${ep.slug}`) } : undefined,
            enclosure: { '@_url': url, '@_length': String(size ?? 0), '@_type': stored?.contentType ?? audioType(ep.audioUrl!) },
            'itunes:duration': ep.duration ? String(ep.duration) : undefined,
            'itunes:season': ep.season ? String(ep.season) : undefined,
            'itunes:episode': ep.episodeNumber ? String(ep.episodeNumber) : undefined,
            'itunes:episodeType': ep.episodeType,
            'itunes:explicit': ep.explicit ? 'true' : 'false',
            'itunes:image': ep.imageUrl ? { '@_href': abs(ep.imageUrl) } : undefined,
            'itunes:author': ownerName,
            'podcast:transcript': ep.transcriptUrl ? { '@_url': abs(ep.transcriptUrl), '@_type': transcriptType(ep.transcriptUrl) } : undefined,
            'podcast:chapters': ep.chaptersUrl ? { '@_url': abs(ep.chaptersUrl), '@_type': 'application/json+chapters' } : undefined,
          };
        }),
      },
    },
  });
}

/** The sitemaps.org limit of URLs in one sitemap file; a larger site gets a sitemap index. */
export const SITEMAP_MAX_URLS = 50_000;

interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

/** Every public page and published post, as absolute URLs with W3C (ISO 8601) dates. */
function sitemapUrls(): SitemapUrl[] {
  const site = env().SITE_URL;
  const posts = getDb()
    .select({ slug: blogPosts.slug, updatedAt: blogPosts.updatedAt })
    .from(blogPosts)
    .where(eq(blogPosts.isPublished, true))
    .orderBy(...PUBLIC_ORDER)
    .all();
  const latestEpisode = getDb()
    .select({ at: max(podcastEpisodes.updatedAt) })
    .from(podcastEpisodes)
    .where(eq(podcastEpisodes.isPublished, true))
    .get()?.at;
  const episodes = getDb().select({ slug: podcastEpisodes.slug, updatedAt: podcastEpisodes.updatedAt }).from(podcastEpisodes).where(eq(podcastEpisodes.isPublished, true)).all();
  const latestPost = posts.reduce<Date | null>((latest, p) => (!latest || p.updatedAt > latest ? p.updatedAt : latest), null);
  const lastmod: Record<string, Date | null | undefined> = { '/blog': latestPost, '/podcast': latestEpisode };
  const issues = listPublishedIssues(getDb(), 10_000);
  if (issues.length > 0) lastmod['/newsletter/archive'] = issues[0]!.startedAt;
  const pages = ['/', '/work-with-me', '/blog', '/podcast', '/newsletter', ...(issues.length > 0 ? ['/newsletter/archive'] : []), '/privacy-policy'];
  return [
    ...pages.map((p) => ({ loc: `${site}${p}`, ...(lastmod[p] ? { lastmod: lastmod[p].toISOString() } : {}) })),
    ...posts.map((p) => ({ loc: `${site}/blog/${p.slug}`, lastmod: p.updatedAt.toISOString() })),
    ...episodes.map((ep) => ({ loc: `${site}/podcast/${ep.slug}`, lastmod: ep.updatedAt.toISOString() })),
    ...issues.map((i) => ({ loc: `${site}/newsletter/${i.slug}`, ...(i.startedAt ? { lastmod: i.startedAt.toISOString() } : {}) })),
  ];
}

/**
 * /sitemap.xml: the URL set itself, or for a site with more than SITEMAP_MAX_URLS URLs a
 * sitemap index of /sitemap-1.xml, /sitemap-2.xml, … with that many URLs each.
 */
export function sitemap(maxUrls = SITEMAP_MAX_URLS): string {
  const urls = sitemapUrls();
  if (urls.length <= maxUrls) return urlset(urls);
  const site = env().SITE_URL;
  const files = Math.ceil(urls.length / maxUrls);
  return xml({ sitemapindex: { '@_xmlns': 'http://www.sitemaps.org/schemas/sitemap/0.9', sitemap: Array.from({ length: files }, (_, i) => ({ loc: `${site}/sitemap-${i + 1}.xml` })) } });
}

/** Part `n` (from 1) of a sitemap index; null when there is no such part. */
export function sitemapPart(n: number, maxUrls = SITEMAP_MAX_URLS): string | null {
  const urls = sitemapUrls();
  if (urls.length <= maxUrls || !Number.isInteger(n) || n < 1) return null;
  const part = urls.slice((n - 1) * maxUrls, n * maxUrls);
  return part.length > 0 ? urlset(part) : null;
}

const urlset = (urls: SitemapUrl[]) => xml({ urlset: { '@_xmlns': 'http://www.sitemaps.org/schemas/sitemap/0.9', url: urls } });

export function robots(): string {
  const site = env().SITE_URL;
  return ['User-agent: *', 'Allow: /', 'Disallow: /admin', 'Disallow: /api/', 'Disallow: /checkout', '', `Sitemap: ${site}/sitemap.xml`, ''].join('\n');
}
