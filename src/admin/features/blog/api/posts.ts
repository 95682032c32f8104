// The admin blog's calls: the post as the API sends it, and the writes beside the schema
// that checks their input (the same PostInputSchema the server parses with).
import { api } from '#lib/api-client.ts';
import { mutate, useQuery } from '#admin/lib/query.ts';
import type { PostInput } from '#shared/schemas/blog-post.ts';

export { PostInputSchema, CATEGORIES, type PostInput } from '#shared/schemas/blog-post.ts';

/** A blog post as GET /api/blog-posts returns it (dates as ISO strings). */
export interface Post {
  id: number;
  title: string;
  slug: string;
  excerpt: string | null;
  /** Absent in list answers (?summary=true), where the excerpt is filled in instead. */
  content?: string;
  featuredImage: string | null;
  category: string;
  isPublished: boolean;
  readTime: number | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const POSTS_PATH = '/api/blog-posts';
/** The list without post bodies: light enough for thousands of posts. */
export const POSTS_LIST_PATH = '/api/blog-posts?summary=true';
export const postPath = (id: number | string) => `/api/blog-posts/${id}`;

/** Every post without its body, drafts included, newest first. */
export const usePosts = () => useQuery<Post[]>(POSTS_LIST_PATH, 'Failed to fetch blog posts');

export const createPost = (input: PostInput) => mutate<Post>('POST', POSTS_PATH, input, { title: 'Error', description: 'Failed to create blog post. Please try again.' });

export const updatePost = (id: number, input: PostInput) => mutate<Post>('PUT', postPath(id), input, { title: 'Error', description: 'Failed to update blog post. Please try again.' });

export const deletePost = (id: number) => mutate<{ success: true }>('DELETE', postPath(id), undefined, { title: 'Error', description: 'Failed to delete the blog post. Please try again.' });

export interface ImportResult {
  imported: number;
  skipped: number;
  /** Posts that were private or password-protected on WordPress: imported as drafts. */
  keptPrivate: { title: string; slug: string; reason: 'password-protected' | 'private' }[];
}

/** POST /api/wordpress/import as multipart (field `file`). */
export function importWordPress(file: File): Promise<ImportResult> {
  const body = new FormData();
  body.append('file', file);
  return api<ImportResult>('POST', '/api/wordpress/import', body);
}
