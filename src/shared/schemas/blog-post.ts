import * as z from 'zod';
import { optionalText, optionalUrl, scheduleTime } from './common.ts';
import { PageQuerySchema, type PageDto } from './paging.ts';

export const CATEGORIES = ['General', 'Leadership', 'Technology', 'Business', 'Personal'] as const;

/** How many tags a post may have, and how long each tag's name may be. */
export const MAX_TAGS = 20;
export const TAG_NAME_MAX = 50;

export const PostInputSchema = z.object({
  title: z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(255, 'Title too long'),
  slug: z.string({ error: 'Slug is required' }).trim().min(1, 'Slug is required').max(255, 'Slug too long'),
  excerpt: optionalText(500, 'Excerpt too long'),
  content: z.string({ error: 'Content is required' }).refine((v) => v.trim().length > 0, 'Content is required'),
  featuredImage: optionalUrl('Invalid image URL'),
  category: z.string({ error: 'Category is required' }).trim().min(1, 'Category is required').max(100, 'Category too long').default('General'),
  isPublished: z.boolean({ error: 'Published must be true or false' }).default(false),
  scheduledAt: scheduleTime,
  readTime: z.number({ error: 'Read time must be a number' }).int().min(1).max(600).nullish(),
  /** The post's tags by name, replacing the ones it has; absent keeps them. */
  tags: z
    .array(z.string({ error: 'Tags must be text' }).trim().max(TAG_NAME_MAX, `Each tag must be at most ${TAG_NAME_MAX} characters`), { error: 'Tags must be a list' })
    .max(MAX_TAGS, `At most ${MAX_TAGS} tags`)
    .optional(),
});
export type PostInput = z.infer<typeof PostInputSchema>;

/** The admin list's status filter: published; drafts (neither published nor scheduled); scheduled. */
export const POST_STATUSES = ['all', 'published', 'draft', 'scheduled'] as const;
export type PostStatusFilter = (typeof POST_STATUSES)[number];

/** GET /api/blog-posts with any of these (admins only) answers one page of the admin list (PostPageDto). */
export const PostPageQuerySchema = PageQuerySchema.extend({ status: z.enum(POST_STATUSES, { error: 'status must be all, published, draft or scheduled' }).optional() });
export type PostPageQuery = z.infer<typeof PostPageQuerySchema>;

export const PostListQuerySchema = PostPageQuerySchema.extend({
  published: z.enum(['true', 'false']).optional(),
  /** true: list items without `content`, with the excerpt filled in (admin lists of thousands). */
  summary: z.enum(['true', 'false']).optional(),
  /** Paging: visitors always get one page (PUBLIC_POSTS_DEFAULT, at most PUBLIC_POSTS_MAX). */
  limit: z.coerce.number({ error: 'limit must be a number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').optional(),
  offset: z.coerce.number({ error: 'offset must be a number' }).int('offset must be a whole number').min(0, 'offset must be at least 0').max(1_000_000).optional(),
});

export const PUBLIC_POSTS_DEFAULT = 20;
export const PUBLIC_POSTS_MAX = 100;

/** A post in the admin list: the row without its body, the excerpt filled in from the body when blank. */
export type PostListItemDto = Omit<PostDto, 'content' | 'tags' | 'excerpt'> & { excerpt: string };

/** The admin list's stat cards, over every post: drafts are the posts not published (scheduled ones too). */
export interface PostStatsDto {
  total: number;
  published: number;
  drafts: number;
}
export type PostPageDto = PageDto<PostListItemDto, PostStatsDto>;

/** What a post card shows; the excerpt falls back to the start of the content. */
export interface PostSummary {
  id: number;
  slug: string;
  title: string;
  category: string;
  excerpt: string;
  featuredImage: string | null;
  /** Smaller WebP copies of an uploaded featured image, as a srcset. */
  featuredSrcset?: string;
  createdAt: string;
  readTime: number | null;
}

/** A tag as a post shows it: the name, and the slug /blog?tag= filters by. */
export interface TagDto {
  slug: string;
  name: string;
}

/** A blog post as the API answers it. */
export interface PostDto {
  id: number;
  title: string;
  slug: string;
  /** Fixed at creation: the feed item's GUID. */
  guid: string | null;
  excerpt: string | null;
  /** Absent in list answers (?summary=true), where the excerpt is filled in instead. */
  content?: string;
  featuredImage: string | null;
  category: string;
  isPublished: boolean;
  authorId: string;
  readTime: number | null;
  publishedAt: Date | null;
  /** When it goes public by itself (only while that is ahead). */
  scheduledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** Sorted by name; in the answers about one post, not in lists. */
  tags?: TagDto[];
}

/** A post that was private or password-protected on WordPress, imported as a draft. */
export interface KeptPrivateDto {
  title: string;
  slug: string;
  reason: 'password-protected' | 'private';
}

/** What POST /api/wordpress/import answers. */
export interface ImportResultDto {
  imported: number;
  updated: number;
  skipped: number;
  failed: number;
  keptPrivate: KeptPrivateDto[];
  comments: { imported: number; skipped: number };
  /** Files of the old site: downloaded, found from an earlier import, or left where they were. */
  media: { downloaded: number; reused: number; failed: number };
  redirects: number;
  /** The run, whose report is at /api/wordpress/import/{runId}/report. */
  runId?: number;
}

/** GET /api/wordpress/import: the latest import, while it runs and after. */
export interface ImportRunDto {
  id: number;
  status: 'running' | 'done' | 'failed';
  fileName: string | null;
  total: number;
  done: number;
  imported: number;
  updated: number;
  skipped: number;
  failed: number;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}
