import * as z from 'zod';
import { PageQuerySchema, type PageDto } from './paging.ts';
import { BotFieldsSchema } from './common.ts';

export const CommentInputSchema = BotFieldsSchema.extend({
  authorName: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(255, 'Name too long'),
  authorEmail: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').max(255, 'Email too long').pipe(z.email('Invalid email address')),
  content: z.string({ error: 'Comment is required' }).trim().min(1, 'Comment is required').max(5000, 'Comment too long'),
});
export type CommentInput = z.infer<typeof CommentInputSchema>;

/** A comment as Admin → Comments gets it, with its post's title and slug (null when gone). */
export interface AdminCommentDto {
  id: number;
  content: string;
  authorName: string;
  authorEmail: string;
  blogPostId: number;
  isApproved: boolean;
  createdAt: Date;
  updatedAt: Date;
  postTitle: string | null;
  postSlug: string | null;
}

/** GET /api/admin/comments with any of these answers one page; without them, every comment. */
export const CommentPageQuerySchema = PageQuerySchema.extend({ status: z.enum(['pending', 'approved'], { error: 'status must be pending or approved' }).optional() });
export type CommentPageQuery = z.infer<typeof CommentPageQuerySchema>;
/** The comment counts shown beside each list, over every comment. */
export interface CommentStatsDto {
  total: number;
  pending: number;
  approved: number;
}
export type CommentPageDto = PageDto<AdminCommentDto, CommentStatsDto>;
