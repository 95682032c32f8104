// Blog post tags: a post's tags, replacing them, and the name of a tag for the /blog filter.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { blogPosts, postTags } from '#db/schema/content.ts';
import { getDb } from '#server/db.ts';
import { slugify, stripControlChars } from '#shared/format.ts';
import { MAX_TAGS, TAG_NAME_MAX, type TagDto } from '#shared/schemas/blog-post.ts';

type Tx = Pick<Db, 'insert' | 'delete'>;

/** A post's tags, sorted by name (case-insensitive). */
export function tagsOf(postId: number): TagDto[] {
  return getDb()
    .select({ slug: postTags.slug, name: postTags.name })
    .from(postTags)
    .where(eq(postTags.postId, postId))
    .orderBy(sql`${postTags.name} collate nocase`, postTags.slug)
    .all();
}

/**
 * The tags `names` stand for: each name trimmed and cut to TAG_NAME_MAX characters, names
 * without a letter or digit dropped, one per slug (the first name given wins), at most
 * MAX_TAGS. Callers that must refuse longer input (the API) check it with the schema first.
 */
function normalizeTags(names: readonly string[]): TagDto[] {
  const bySlug = new Map<string, string>();
  for (const raw of names) {
    const name = stripControlChars(raw).trim().slice(0, TAG_NAME_MAX).trim();
    const slug = slugify(name);
    if (slug && !bySlug.has(slug)) bySlug.set(slug, name);
    if (bySlug.size === MAX_TAGS) break;
  }
  return [...bySlug].map(([slug, name]) => ({ slug, name }));
}

/** Replaces a post's tags with `names` (see normalizeTags); an empty list removes them all. */
export function setPostTags(db: Tx, postId: number, names: readonly string[]): TagDto[] {
  const tags = normalizeTags(names);
  db.delete(postTags).where(eq(postTags.postId, postId)).run();
  if (tags.length) {
    db.insert(postTags)
      .values(tags.map((t) => ({ postId, ...t })))
      .run();
  }
  return tags;
}

/** The display name of the tag `slug` when at least one published post has it, else null. */
export function tagName(slug: string): string | null {
  return (
    getDb()
      .select({ name: postTags.name })
      .from(postTags)
      .innerJoin(blogPosts, eq(blogPosts.id, postTags.postId))
      .where(and(eq(postTags.slug, slug), eq(blogPosts.isPublished, true)))
      .limit(1)
      .get()?.name ?? null
  );
}
