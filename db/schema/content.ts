// Blog, podcast, comments and newsletter: what the public pages read.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { randomBytes, randomUUID } from 'node:crypto';
import { users } from './auth.ts';
import { nowMs } from './now.ts';

export const blogPosts = sqliteTable(
  'blog_posts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    title: text('title', { length: 255 }).notNull(),
    slug: text('slug', { length: 255 }).notNull(),
    // The feed item's GUID: fixed at creation, so a domain move shows readers nothing new.
    // Rows from before the column existed are given their old URL-based GUID on start.
    guid: text('guid').$defaultFn(() => randomUUID()),
    excerpt: text('excerpt'),
    content: text('content').notNull(),
    featuredImage: text('featured_image'),
    category: text('category', { length: 100 }).notNull().default('General'),
    isPublished: integer('is_published', { mode: 'boolean' }).notNull().default(false),
    authorId: text('author_id')
      .notNull()
      .references(() => users.id),
    readTime: integer('read_time'),
    // When it went public (it orders lists and feeds); kept through later edits.
    publishedAt: integer('published_at', { mode: 'timestamp_ms' }),
    // When it goes public by itself; set only while that is in the future (is_published is false until then).
    scheduledAt: integer('scheduled_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [
    uniqueIndex('blog_posts_slug_unique').on(t.slug),
    uniqueIndex('blog_posts_guid_unique').on(t.guid),
    index('blog_posts_published_created_idx').on(t.isPublished, t.createdAt),
    index('blog_posts_scheduled_idx').on(t.scheduledAt),
    index('blog_posts_published_at_idx').on(t.isPublished, t.publishedAt),
  ],
);

export const podcastEpisodes = sqliteTable(
  'podcast_episodes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    title: text('title', { length: 255 }).notNull(),
    slug: text('slug', { length: 255 }).notNull(),
    // As for posts: podcast apps key downloads on it, so it never changes once set.
    guid: text('guid').$defaultFn(() => randomUUID()),
    description: text('description'),
    audioUrl: text('audio_url'),
    duration: integer('duration'),
    episodeNumber: integer('episode_number'),
    guest: text('guest', { length: 255 }),
    // Apple's and Podcasting 2.0's fields: all optional but the type ('full') and the flag.
    season: integer('season'),
    episodeType: text('episode_type', { enum: ['full', 'trailer', 'bonus'] })
      .notNull()
      .default('full'),
    explicit: integer('explicit', { mode: 'boolean' }).notNull().default(false),
    imageUrl: text('image_url'),
    // Sanitised HTML, like a post's content; the description stays the short summary.
    showNotes: text('show_notes'),
    transcriptUrl: text('transcript_url'),
    chaptersUrl: text('chapters_url'),
    isPublished: integer('is_published', { mode: 'boolean' }).notNull().default(false),
    publishedAt: integer('published_at', { mode: 'timestamp_ms' }),
    scheduledAt: integer('scheduled_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [
    uniqueIndex('podcast_episodes_slug_unique').on(t.slug),
    uniqueIndex('podcast_episodes_guid_unique').on(t.guid),
    index('podcast_episodes_published_created_idx').on(t.isPublished, t.createdAt),
    index('podcast_episodes_scheduled_idx').on(t.scheduledAt),
  ],
);

/** A post's tags: the name as shown, and the slug /blog?tag= filters on. */
export const postTags = sqliteTable(
  'post_tags',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    slug: text('slug', { length: 100 }).notNull(),
    name: text('name', { length: 100 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.slug] }), index('post_tags_slug_idx').on(t.slug)],
);

/**
 * Old addresses that answer 301 to a page of this site (an imported WordPress permalink, or
 * one the owner added). Looked up only when a path would otherwise be a 404, so they cost the
 * pages that exist nothing.
 */
export const redirects = sqliteTable(
  'redirects',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** A path, without a trailing slash ('/2019/05/my-post'), or '/?p=123' for WordPress's query form. */
    fromPath: text('from_path', { length: 500 }).notNull(),
    /** A path of this site ('/blog/my-post'). */
    toPath: text('to_path', { length: 500 }).notNull(),
    hits: integer('hits').notNull().default(0),
    lastHitAt: integer('last_hit_at', { mode: 'timestamp_ms' }),
    source: text('source', { enum: ['manual', 'wordpress', 'substack', 'ghost'] })
      .notNull()
      .default('manual'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('redirects_from_unique').on(t.fromPath)],
);

export const comments = sqliteTable(
  'comments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    content: text('content').notNull(),
    authorName: text('author_name', { length: 255 }).notNull(),
    authorEmail: text('author_email', { length: 255 }).notNull(),
    blogPostId: integer('blog_post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    isApproved: integer('is_approved', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [index('comments_post_approved_idx').on(t.blogPostId, t.isApproved, t.createdAt)],
);

export const newsletterSubscribers = sqliteTable(
  'newsletter_subscribers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email', { length: 255 }).notNull(),
    name: text('name', { length: 255 }),
    convertKitId: text('convert_kit_id'),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    subscribedAt: integer('subscribed_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    // Double opt-in: the SHA-256 of the confirmation link's token and when it was last sent.
    confirmTokenHash: text('confirm_token_hash'),
    confirmSentAt: integer('confirm_sent_at', { mode: 'timestamp_ms' }),
    confirmedAt: integer('confirmed_at', { mode: 'timestamp_ms' }),
    // The one-click unsubscribe link's token (it never expires) and when it was used.
    unsubscribeToken: text('unsubscribe_token').$defaultFn(() => randomBytes(24).toString('base64url')),
    unsubscribedAt: integer('unsubscribed_at', { mode: 'timestamp_ms' }),
    /** The address was refused for good (a 5xx for it): no more newsletters go there. */
    bouncedAt: integer('bounced_at', { mode: 'timestamp_ms' }),
    /**
     * Signed up through the Kit form (KIT_FORM_ID): waiting since then for Kit's own confirmation
     * e-mail to be followed; the subscriber gets no issue until Kit says they confirmed.
     */
    kitPendingSince: integer('kit_pending_since', { mode: 'timestamp_ms' }),
    /** When Kit was last asked whether that confirmation came: the job asks the longest unasked first. */
    kitCheckedAt: integer('kit_checked_at', { mode: 'timestamp_ms' }),
    /** How the address came: a form's slug, `import:<name>`, `checkout`, `booking`, `site`; null for rows from before it was kept. */
    source: text('source', { length: 255 }),
  },
  (t) => [
    uniqueIndex('newsletter_subscribers_email_unique').on(t.email),
    uniqueIndex('newsletter_subscribers_confirm_unique').on(t.confirmTokenHash),
    uniqueIndex('newsletter_subscribers_unsubscribe_unique').on(t.unsubscribeToken),
    // The admin list pages newest first, and the CSV export walks it in that order.
    index('newsletter_subscribers_subscribed_idx').on(t.subscribedAt, t.id),
  ],
);

/**
 * Unsubscribes still to pass on to Kit (an unsubscribe or a delete here), kept until Kit takes
 * them: a Kit that is down, or a restart, loses none.
 */
export const kitUnsubscribes = sqliteTable('kit_unsubscribes', {
  kitId: text('kit_id').primaryKey(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});
