// Feeds and crawler files: blog RSS, the podcast RSS that Apple Podcasts and Spotify read,
// the sitemap and robots.txt. XML is built with fast-xml-parser (escaping included).
import XMLBuilder from 'fast-xml-builder';
import { inArray } from 'drizzle-orm';
import { statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { BRAND } from '../../shared/brand.ts';
import { storedFiles } from '../../../db/schema/storage.ts';
import { env, getDb } from '../context.ts';
import { resolveUpload } from '../storage/local.ts';
import { SERVE_TYPES } from '../storage/upload-policy.ts';
import { listPosts } from './blog-posts.ts';
import { listEpisodes, type Episode } from './podcast-episodes.ts';
import { htmlToText } from './sanitize.ts';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  cdataPropName: '#cdata',
  suppressEmptyNode: true,
  format: false,
});

const xml = (root: Record<string, unknown>) => `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(root)}`;
const rfc2822 = (d: Date) => d.toUTCString();
const abs = (path: string) => new URL(path, `${env().SITE_URL}/`).href;

/** RSS 2.0 of published posts, newest first, with the full HTML in content:encoded. */
export function blogFeed(limit = 50): string {
  const site = env().SITE_URL;
  const posts = listPosts({ limit });
  return xml({
    rss: {
      '@_version': '2.0',
      '@_xmlns:content': 'http://purl.org/rss/1.0/modules/content/',
      '@_xmlns:atom': 'http://www.w3.org/2005/Atom',
      channel: {
        title: `${BRAND.name} — Leadership Insights`,
        link: `${site}/blog`,
        description: BRAND.blurb,
        language: 'en-us',
        'atom:link': { '@_href': `${site}/rss.xml`, '@_rel': 'self', '@_type': 'application/rss+xml' },
        lastBuildDate: rfc2822(posts[0]?.updatedAt ?? new Date()),
        item: posts.map((p) => ({
          title: p.title,
          link: `${site}/blog/${p.slug}`,
          guid: { '#text': `${site}/blog/${p.slug}`, '@_isPermaLink': 'true' },
          pubDate: rfc2822(p.publishedAt ?? p.createdAt),
          category: p.category || 'General',
          description: p.excerpt?.trim() || htmlToText(p.content).slice(0, 300),
          'content:encoded': { '#cdata': p.content.replaceAll(']]>', ']]&gt;') },
        })),
      },
    },
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
  const rows = getDb()
    .select({ url: storedFiles.url, size: storedFiles.size, contentType: storedFiles.contentType })
    .from(storedFiles)
    .where(inArray(storedFiles.url, remote))
    .all();
  return new Map(rows.map((r) => [r.url, r]));
}

function audioType(url: string): string {
  const ext = extname(new URL(url, 'http://x').pathname).slice(1).toLowerCase();
  return SERVE_TYPES[ext] ?? 'audio/mpeg';
}

/** A stable GUID per episode: it must never change once published. */
export const episodeGuid = (e: Episode) => `${new URL(env().SITE_URL).host}:podcast-episode:${e.id}`;

/**
 * The podcast feed for Apple Podcasts and Spotify: channel artwork, category, owner and
 * explicit flag; one item per published episode that has audio, each with an enclosure of
 * the file's real byte length and type.
 */
export function podcastFeed(): string {
  const e = env();
  const site = e.SITE_URL;
  const ownerName = e.PODCAST_OWNER_NAME ?? BRAND.name;
  const ownerEmail = e.PODCAST_OWNER_EMAIL ?? e.CONTACT_EMAIL ?? `podcast@${new URL(site).hostname}`;
  const artwork = abs(e.PODCAST_ARTWORK_URL ?? '/images/podcast-artwork.png');
  const episodes = listEpisodes().filter((ep) => ep.audioUrl);
  const remote = remoteFiles(episodes.map((ep) => ep.audioUrl!));
  const description = `Conversations on leadership, systems and building companies that scale, with ${BRAND.name}.`;
  return xml({
    rss: {
      '@_version': '2.0',
      '@_xmlns:itunes': 'http://www.itunes.com/dtds/podcast-1.0.dtd',
      '@_xmlns:content': 'http://purl.org/rss/1.0/modules/content/',
      '@_xmlns:atom': 'http://www.w3.org/2005/Atom',
      channel: {
        title: BRAND.podcastName,
        link: `${site}/podcast`,
        description,
        language: 'en-us',
        copyright: `© ${new Date().getFullYear()} ${BRAND.name}`,
        'atom:link': { '@_href': `${site}/podcast.xml`, '@_rel': 'self', '@_type': 'application/rss+xml' },
        image: { url: artwork, title: BRAND.podcastName, link: `${site}/podcast` },
        'itunes:image': { '@_href': artwork },
        'itunes:author': ownerName,
        'itunes:owner': { 'itunes:name': ownerName, 'itunes:email': ownerEmail },
        'itunes:summary': description,
        'itunes:category': { '@_text': e.PODCAST_CATEGORY ?? 'Business' },
        'itunes:explicit': 'false',
        'itunes:type': 'episodic',
        item: episodes.map((ep) => {
          const url = abs(ep.audioUrl!);
          const stored = remote.get(ep.audioUrl!);
          const size = stored?.size ?? localFileSize(ep.audioUrl!);
          return {
            title: ep.title,
            guid: { '#text': episodeGuid(ep), '@_isPermaLink': 'false' },
            link: `${site}/podcast`,
            pubDate: rfc2822(ep.createdAt),
            description: ep.description ?? ep.title,
            'itunes:summary': ep.description ?? ep.title,
            enclosure: { '@_url': url, '@_length': String(size ?? 0), '@_type': stored?.contentType ?? audioType(ep.audioUrl!) },
            'itunes:duration': ep.duration ? String(ep.duration) : undefined,
            'itunes:episode': ep.episodeNumber ? String(ep.episodeNumber) : undefined,
            'itunes:episodeType': 'full',
            'itunes:explicit': 'false',
            'itunes:author': ownerName,
          };
        }),
      },
    },
  });
}

/** Every public page and published post. */
export function sitemap(): string {
  const site = env().SITE_URL;
  const pages = ['/', '/work-with-me', '/blog', '/podcast', '/newsletter', '/privacy-policy'];
  const posts = listPosts();
  const episodes = listEpisodes();
  const latestEpisode = episodes[0]?.updatedAt;
  return xml({
    urlset: {
      '@_xmlns': 'http://www.sitemaps.org/schemas/sitemap/0.9',
      url: [
        ...pages.map((p) => ({
          loc: `${site}${p}`,
          ...(p === '/blog' && posts[0] ? { lastmod: posts[0].updatedAt.toISOString() } : {}),
          ...(p === '/podcast' && latestEpisode ? { lastmod: latestEpisode.toISOString() } : {}),
        })),
        ...posts.map((p) => ({ loc: `${site}/blog/${p.slug}`, lastmod: p.updatedAt.toISOString() })),
      ],
    },
  });
}

export function robots(): string {
  const site = env().SITE_URL;
  return ['User-agent: *', 'Allow: /', 'Disallow: /admin', 'Disallow: /api/', 'Disallow: /checkout', '', `Sitemap: ${site}/sitemap.xml`, ''].join('\n');
}
