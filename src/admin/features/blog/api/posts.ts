// The admin blog's calls: the post as the API sends it, and the writes beside the schema
// that checks their input (the same PostInputSchema the server parses with).
import { API } from '#shared/api-paths.ts';
import { api } from '#lib/api-client.ts';
import { mutate } from '#admin/lib/query.ts';
import type { PostInput } from '#shared/schemas/blog-post.ts';
import type { Json } from '#shared/json.ts';
import type { ImportResultDto, PostDto, PostListItemDto } from '#shared/schemas/blog-post.ts';
import type { PublicationImportResultDto } from '#shared/schemas/publication-import.ts';

export { PostInputSchema, CATEGORIES, type PostInput } from '#shared/schemas/blog-post.ts';

/** A blog post as GET /api/blog-posts returns it (dates as ISO strings). */
export type Post = Json<PostDto>;
/** A post in the list: without its body, the excerpt filled in. */
export type PostListItem = Json<PostListItemDto>;

/** Also the admin list, one page at a time (?page, pageSize, q, status). */
export const POSTS_PATH = API.posts;
export const postPath = API.post;

export const createPost = (input: PostInput) => mutate<Post>('POST', POSTS_PATH, input, { title: 'Error', description: 'Failed to create blog post. Please try again.' });

export const updatePost = (id: number, input: PostInput) => mutate<Post>('PUT', postPath(id), input, { title: 'Error', description: 'Failed to update blog post. Please try again.' });

export const deletePost = (id: number) => mutate<{ success: true }>('DELETE', postPath(id), undefined, { title: 'Error', description: 'Failed to delete the blog post. Please try again.' });

export type ImportResult = ImportResultDto;

/** POST /api/wordpress/import as multipart (field `file`, and `downloadAudio`). */
export function importWordPress(file: File, downloadAudio = false): Promise<ImportResult> {
  const body = new FormData();
  if (downloadAudio) body.append('downloadAudio', '1');
  body.append('file', file);
  return api<ImportResult>('POST', API.wordpressImport, body);
}

/** POST /api/admin/import/substack with Substack's export zip (field `file`). */
export function importSubstack(file: File): Promise<PublicationImportResultDto> {
  const body = new FormData();
  body.append('file', file);
  return api<PublicationImportResultDto>('POST', API.substackImport, body);
}

/** POST /api/admin/import/ghost with Ghost's JSON export (field `file`; `siteUrl`, the old site's address, for its images). */
export function importGhost(file: File, siteUrl: string): Promise<PublicationImportResultDto> {
  const body = new FormData();
  if (siteUrl.trim()) body.append('siteUrl', siteUrl.trim());
  body.append('file', file);
  return api<PublicationImportResultDto>('POST', API.ghostImport, body);
}
