import { screenBots } from '#server/http/bots.ts';
import { endpoint, json } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { getPostById, requireVisiblePost } from '#server/content/blog-posts.ts';
import { createComment, listApprovedComments } from '#server/content/comments.ts';
import { CommentInputSchema } from '#shared/schemas/comment.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Approved comments of a visible post, newest first, without e-mails. */
export const GET = endpoint({ auth: 'public', params: IdParamsSchema }, ({ params, user }) => {
  requireVisiblePost(getPostById(params.id), Boolean(user?.isAdmin));
  return listApprovedComments(params.id);
});

// A new comment waits for approval, so no public page changes: the page cache is kept.
export const POST = endpoint({ auth: 'public', changesContent: false, params: IdParamsSchema, body: CommentInputSchema, form: { success: (a) => String(a.message) } }, ({ params, body, context }) => {
  hit(LIMITS.comment, clientKey(context));
  const message = 'Your comment has been submitted for approval.';
  if (screenBots(body) === 'bot') return json({ id: 0, authorName: body.authorName, content: body.content, createdAt: new Date(), message }, 201);
  return json({ ...createComment(params.id, body), message }, 201);
});
