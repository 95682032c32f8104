import { endpoint } from '#server/app/endpoint.ts';
import { listAllComments, pageComments } from '#server/content/comments.ts';
import { CommentPageQuerySchema } from '#shared/schemas/comment.ts';
import { asksForPage } from '#shared/schemas/paging.ts';

/** Every comment (the plain call), or, given page, pageSize, q or status, one page with the counts. */
export const GET = endpoint({ auth: 'admin', query: CommentPageQuerySchema }, ({ query }) => (asksForPage(query) ? pageComments(query) : listAllComments()));
