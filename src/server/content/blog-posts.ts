// Blog posts: queries and rules.
import { and, count, desc, eq, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { blogPosts } from '#db/schema/content.ts';
import { getDb } from '#server/db.ts';
import { conflict, notFound } from '#server/http/errors.ts';
import type { PostDto, PostInput, PostListItemDto, PostPageDto, PostPageQuery, PostStatusFilter, PostSummary, TagDto } from '#shared/schemas/blog-post.ts';
import { stripControlChars, truncate } from '#shared/format.ts';
import { withCardImages } from '#server/media/images.ts';
import { containsText, countIf, windowOf } from '#server/http/paging.ts';
import { setPostTags, tagsOf } from './post-tags.ts';
import { publication, withSchedule } from './publishing.ts';
import { htmlToText, readTimeOf, sanitizeSavedHtml } from '#server/html/sanitize.ts';
import { nowMs } from '#db/schema/now.ts';
import { itemChanged } from '#server/http/pages/page-cache.ts';
import type { Same } from '#shared/json.ts';

export type Post = typeof blogPosts.$inferSelect;
// The API answers rows as they are (one post with its tags): the table and PostDto must list the same fields.
void (true satisfies Same<Omit<Post, 'content'>, Omit<PostDto, 'content' | 'tags'>>);

/** One post as the API answers it: the row and its tags. */
export function withTags(post: Post): Post & { tags: TagDto[] } {
  return { ...post, tags: tagsOf(post.id) };
}

/** The public order: the latest to go public first. */
export const PUBLIC_ORDER = [desc(blogPosts.publishedAt), desc(blogPosts.id)];
/** The admin order: the latest written first. */
const ADMIN_ORDER = [desc(blogPosts.createdAt), desc(blogPosts.id)];

/** Posts newest first (by when they went public; drafts included, by when they were written); only published ones unless `includeDrafts`; all of them unless `limit`. */
export function listPosts({ includeDrafts = false, limit, offset = 0 }: { includeDrafts?: boolean; limit?: number | undefined; offset?: number | undefined } = {}): Post[] {
  const q = getDb()
    .select()
    .from(blogPosts)
    .where(includeDrafts ? undefined : eq(blogPosts.isPublished, true))
    .orderBy(...(includeDrafts ? ADMIN_ORDER : PUBLIC_ORDER));
  return limit ? q.limit(limit).offset(offset).all() : q.all();
}

/** How many posts there are (published ones unless `includeDrafts`). */
export function countPosts({ includeDrafts = false }: { includeDrafts?: boolean } = {}): number {
  return (
    getDb()
      .select({ n: count() })
      .from(blogPosts)
      .where(includeDrafts ? undefined : eq(blogPosts.isPublished, true))
      .get()?.n ?? 0
  );
}

/** A post as the admin list shows it: without its body, the excerpt filled in from the body's first 160 characters when blank. */
export function toListItem({ content, ...rest }: Post): PostListItemDto {
  return { ...rest, excerpt: toSummary({ ...rest, content }, 160).excerpt };
}

/** The posts a status filter keeps: published; drafts (neither published nor scheduled); scheduled; or all. */
function hasStatus(status: PostStatusFilter | undefined): SQL | undefined {
  if (status === 'published') return eq(blogPosts.isPublished, true);
  if (status === 'draft') return and(eq(blogPosts.isPublished, false), isNull(blogPosts.scheduledAt));
  if (status === 'scheduled') return isNotNull(blogPosts.scheduledAt);
  return undefined;
}

/**
 * One page of the admin list, drafts included, newest first: of one status, searched in the
 * title and the excerpt; with the stat cards' figures over every post.
 */
export function pagePosts(query: PostPageQuery): PostPageDto {
  const db = getDb();
  const { page, pageSize, offset } = windowOf(query);
  // A post without an excerpt shows the start of its body instead, so that is what is searched.
  const shownExcerpt = sql`case when trim(coalesce(${blogPosts.excerpt}, '')) = '' then substr(${blogPosts.content}, 1, 1000) else ${blogPosts.excerpt} end`;
  const where = and(hasStatus(query.status), containsText(query.q, blogPosts.title, shownExcerpt));
  const items = db
    .select()
    .from(blogPosts)
    .where(where)
    .orderBy(...ADMIN_ORDER)
    .limit(pageSize)
    .offset(offset)
    .all()
    .map(toListItem);
  const stats = db
    .select({ total: count(), published: countIf(blogPosts.isPublished) })
    .from(blogPosts)
    .get()!;
  const total = where ? db.select({ n: count() }).from(blogPosts).where(where).get()!.n : stats.total;
  return { items, total, page, pageSize, stats: { ...stats, drafts: stats.total - stats.published } };
}

/** Up to `limit` other published posts, newest first. */
export function listRelatedPosts(postId: number, limit = 3): Post[] {
  return getDb()
    .select()
    .from(blogPosts)
    .where(and(eq(blogPosts.isPublished, true), ne(blogPosts.id, postId)))
    .orderBy(...PUBLIC_ORDER)
    .limit(limit)
    .all();
}

export function getPostById(id: number): Post | undefined {
  return getDb().select().from(blogPosts).where(eq(blogPosts.id, id)).get();
}

export function getPostBySlug(slug: string): Post | undefined {
  return getDb().select().from(blogPosts).where(eq(blogPosts.slug, slug)).get();
}

/** The post a visitor may see: published, or any when an admin asks. Throws 404 otherwise. */
export function requireVisiblePost(post: Post | undefined, isAdmin: boolean): Post {
  if (!post || (!post.isPublished && !isAdmin)) throw notFound('Post not found');
  return post;
}

function assertSlugFree(slug: string, exceptId?: number): void {
  const clash = getDb()
    .select({ id: blogPosts.id })
    .from(blogPosts)
    .where(exceptId ? and(eq(blogPosts.slug, slug), ne(blogPosts.id, exceptId)) : eq(blogPosts.slug, slug))
    .get();
  if (clash) throw conflict('A post with this slug already exists', [{ path: ['slug'], message: 'A post with this slug already exists' }]);
}

function prepare(input: PostInput) {
  const content = sanitizeSavedHtml(input.content);
  return {
    title: input.title,
    slug: input.slug,
    excerpt: input.excerpt,
    content,
    featuredImage: input.featuredImage,
    category: input.category || 'General',
    readTime: input.readTime ?? readTimeOf(content),
  };
}

/** Creates a post, with the tags `input.tags` names when given. */
export function createPost(input: PostInput, authorId: string): Post {
  assertSlugFree(input.slug);
  const values = prepare(input);
  const post = withSchedule(
    getDb().transaction((tx) => {
      const post = tx
        .insert(blogPosts)
        .values({ ...values, ...publication(input, null), authorId })
        .returning()
        .get();
      if (input.tags) setPostTags(tx, post.id, input.tags);
      return post;
    }),
  );
  itemChanged('posts', null, post);
  return post;
}

/** Updates a post; its tags become the ones `input.tags` names, or stay as they are when it is absent. */
export function updatePost(id: number, input: PostInput): Post {
  const existing = getPostById(id);
  if (!existing) throw notFound('Post not found');
  assertSlugFree(input.slug, id);
  const values = prepare(input);
  const updated = withSchedule(
    getDb().transaction((tx) => {
      const post = tx
        .update(blogPosts)
        .set({ ...values, ...publication(input, existing), updatedAt: nowMs })
        .where(eq(blogPosts.id, id))
        .returning()
        .get();
      if (input.tags) setPostTags(tx, id, input.tags);
      return post;
    }),
  );
  itemChanged('posts', existing, updated);
  return updated;
}

export function deletePost(id: number): void {
  const deleted = getDb().delete(blogPosts).where(eq(blogPosts.id, id)).returning({ isPublished: blogPosts.isPublished, slug: blogPosts.slug }).get();
  if (!deleted) throw notFound('Post not found');
  itemChanged('posts', deleted, null);
}

type SummarySource = Pick<Post, 'id' | 'slug' | 'title' | 'category' | 'excerpt' | 'content' | 'featuredImage' | 'createdAt' | 'readTime'> & { publishedAt?: Date | null };

/** A post as its card shows it; the excerpt falls back to the content's first `excerptChars` characters. */
export function toSummary(post: SummarySource, excerptChars = 120): PostSummary {
  return {
    id: post.id,
    slug: post.slug,
    title: post.title,
    category: post.category || 'General',
    excerpt: post.excerpt?.trim() || truncate(htmlToText(post.content), excerptChars),
    featuredImage: post.featuredImage,
    // The date a card shows: when the post went public.
    createdAt: (post.publishedAt ?? post.createdAt).toISOString(),
    readTime: post.readTime,
  };
}

export const BLOG_PAGE_SIZE = 24;

/** Distinct categories of published posts, sorted. */
export function listPublishedCategories(): string[] {
  return getDb()
    .selectDistinct({ c: blogPosts.category })
    .from(blogPosts)
    .where(eq(blogPosts.isPublished, true))
    .all()
    .map((r) => r.c || 'General')
    .sort((a, b) => a.localeCompare(b));
}

/**
 * The public blog search: title or excerpt contain `q` (case-insensitive), category exact
 * unless 'All', having the tag whose slug is `tag` when given, newest first, one page at a time. Three or more characters use the FTS5
 * trigram index; shorter ones fall back to LIKE.
 */
export function searchPublishedPosts({
  q = '',
  category = 'All',
  tag = '',
  page = 1,
  pageSize = BLOG_PAGE_SIZE,
}: {
  q?: string | undefined;
  category?: string | undefined;
  tag?: string | undefined;
  page?: number;
  pageSize?: number;
}): { items: PostSummary[]; total: number } {
  const db = getDb().$client;
  const where: string[] = ['b.is_published = 1'];
  const params: (string | number)[] = [];
  let from = 'blog_posts b';
  // Control characters mean nothing in a search and break FTS5's query syntax (NUL ends it).
  const term = stripControlChars(q).trim();
  if (term.length >= 3) {
    from = 'blog_posts_fts f JOIN blog_posts b ON b.id = f.rowid';
    where.push('blog_posts_fts MATCH ?');
    params.push(`"${term.replaceAll('"', '""')}"`);
  } else if (term) {
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push("(b.title LIKE ? ESCAPE '\\' OR coalesce(b.excerpt, '') LIKE ? ESCAPE '\\')");
    params.push(like, like);
  }
  if (category && category !== 'All') {
    where.push('b.category = ?');
    params.push(category);
  }
  if (tag) {
    where.push('EXISTS (SELECT 1 FROM post_tags t WHERE t.post_id = b.id AND t.slug = ?)');
    params.push(tag);
  }
  const clause = where.join(' AND ');
  const total = (db.prepare(`SELECT count(*) AS n FROM ${from} WHERE ${clause}`).get(...params) as { n: number }).n;
  const rows = db
    .prepare(
      `SELECT b.id, b.slug, b.title, b.category, b.excerpt, b.content, b.featured_image AS featuredImage, b.created_at AS createdAt, b.published_at AS publishedAt, b.read_time AS readTime
       FROM ${from} WHERE ${clause} ORDER BY b.published_at DESC, b.id DESC LIMIT ? OFFSET ?`,
    )
    .all(...params, pageSize, (Math.max(1, page) - 1) * pageSize) as {
    id: number;
    slug: string;
    title: string;
    category: string;
    excerpt: string | null;
    content: string;
    featuredImage: string | null;
    createdAt: number;
    publishedAt: number | null;
    readTime: number | null;
  }[];
  const items = rows.map((r) => toSummary({ ...r, createdAt: new Date(r.createdAt), publishedAt: r.publishedAt === null ? null : new Date(r.publishedAt) }));
  return { total, items: withCardImages(getDb(), items) };
}
