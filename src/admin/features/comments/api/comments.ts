// The comment moderation calls of the admin: approve and delete.
import { API } from '#shared/api-paths.ts';
import { mutate } from '#admin/lib/query.ts';
import type { Json } from '#shared/json.ts';
import type { AdminCommentDto } from '#shared/schemas/comment.ts';

/** A comment as GET /api/admin/comments returns it, with its post's title (null when gone). */
export type AdminComment = Json<AdminCommentDto>;

export const COMMENTS_PATH = API.comments;

export const approveComment = (id: number) => mutate<unknown>('PATCH', `${COMMENTS_PATH}/${id}/approve`, undefined, { title: 'Error', description: 'Failed to approve comment.' });

export const deleteComment = (id: number) => mutate<{ success: true }>('DELETE', `${COMMENTS_PATH}/${id}`, undefined, { title: 'Error', description: 'Failed to delete comment.' });
