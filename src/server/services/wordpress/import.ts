// The import itself: the posts of a WXR document into a given database, in one transaction.
// No server state here: it runs in a worker thread (wordpress-import-worker.ts) so a large
// export never stalls the server's event loop.
import type { Db } from '#db/client.ts';
import { blogPosts } from '#db/schema/content.ts';
import { htmlToText, readTimeOf, sanitizePostHtml } from '#server/services/sanitize.ts';
import { slugify, truncate } from '#shared/format.ts';
import { PostInputSchema, type ImportResultDto, type KeptPrivateDto } from '#shared/schemas/blog-post.ts';
import { autop } from './autop.ts';
import { parseWxr } from './parse.ts';

const IMPORTABLE_STATUS: Record<string, boolean> = { publish: true, draft: false, pending: false, private: false, future: false };

/** Maps WordPress's default category and anything blank to the site's default. */
function categoryOf(name: string | null): string {
  if (!name || /^uncategori[sz]ed$/i.test(name)) return 'General';
  return name.slice(0, 100);
}

export type KeptPrivate = KeptPrivateDto;
export type ImportResult = ImportResultDto;

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
    const isPublished = IMPORTABLE_STATUS[item.status] && !hidden;
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
    const taken = new Set(
      tx
        .select({ slug: blogPosts.slug })
        .from(blogPosts)
        .all()
        .map((r) => r.slug),
    );
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
