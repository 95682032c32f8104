// The comment moderation calls of the admin: approve and delete.
import { mutate } from '#admin/lib/query.ts';

/** A comment as GET /api/admin/comments returns it, with its post's title (null when gone). */
export interface AdminComment {
  id: number;
  content: string;
  authorName: string;
  authorEmail: string;
  blogPostId: number;
  isApproved: boolean;
  createdAt: string;
  updatedAt: string;
  postTitle: string | null;
  postSlug: string | null;
}

export const COMMENTS_PATH = '/api/admin/comments';

export const approveComment = (id: number) => mutate<unknown>('PATCH', `${COMMENTS_PATH}/${id}/approve`, undefined, { title: 'Error', description: 'Failed to approve comment.' });

export const deleteComment = (id: number) => mutate<{ success: true }>('DELETE', `${COMMENTS_PATH}/${id}`, undefined, { title: 'Error', description: 'Failed to delete comment.' });
