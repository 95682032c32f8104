// The comment moderation calls of the admin (spec section 7).
import { api } from '@/lib/api-client';

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

export const approveComment = (id: number) => api<unknown>('PATCH', `${COMMENTS_PATH}/${id}/approve`);

export const deleteComment = (id: number) => api<{ success: true }>('DELETE', `${COMMENTS_PATH}/${id}`);
