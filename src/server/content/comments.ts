// Comments: visitors submit, admins approve; only approved ones are public.
import type { AdminCommentDto, CommentPageDto, CommentPageQuery } from '#shared/schemas/comment.ts';
import { and, count, desc, eq } from 'drizzle-orm';
import { containsText, countIf, windowOf } from '#server/http/paging.ts';
import { blogPosts, comments } from '#db/schema/content.ts';
import { getDb } from '#server/db.ts';
import { notFound } from '#server/http/errors.ts';
import { notifyCommentAwaitingApproval } from '#server/accounts/notify.ts';
import type { CommentInput } from '#shared/schemas/comment.ts';
import { nowMs } from '#db/schema/now.ts';

/** What the public sees of a comment: never the e-mail. */
export interface PublicComment {
  id: number;
  authorName: string;
  content: string;
  createdAt: Date;
}

export function listApprovedComments(postId: number): PublicComment[] {
  return getDb()
    .select({ id: comments.id, authorName: comments.authorName, content: comments.content, createdAt: comments.createdAt })
    .from(comments)
    .where(and(eq(comments.blogPostId, postId), eq(comments.isApproved, true)))
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .all();
}

/** Stores a visitor's comment as pending (the owner is told by e-mail); the post must be public. */
export function createComment(postId: number, input: CommentInput): PublicComment {
  const post = getDb().select({ ok: blogPosts.isPublished, title: blogPosts.title }).from(blogPosts).where(eq(blogPosts.id, postId)).get();
  if (!post?.ok) throw notFound('Post not found');
  const row = getDb().transaction((tx) => {
    const stored = tx.insert(comments).values({ content: input.content, authorName: input.authorName, authorEmail: input.authorEmail, blogPostId: postId, isApproved: false }).returning().get();
    notifyCommentAwaitingApproval(tx, { postTitle: post.title, authorName: stored.authorName, content: stored.content });
    return stored;
  });
  return { id: row.id, authorName: row.authorName, content: row.content, createdAt: row.createdAt };
}

const adminColumns = {
  id: comments.id,
  content: comments.content,
  authorName: comments.authorName,
  authorEmail: comments.authorEmail,
  blogPostId: comments.blogPostId,
  isApproved: comments.isApproved,
  createdAt: comments.createdAt,
  updatedAt: comments.updatedAt,
  postTitle: blogPosts.title,
  postSlug: blogPosts.slug,
};

/** Every comment with its post's title (null when the post is gone), newest first. */
export function listAllComments(): AdminCommentDto[] {
  return getDb().select(adminColumns).from(comments).leftJoin(blogPosts, eq(blogPosts.id, comments.blogPostId)).orderBy(desc(comments.createdAt), desc(comments.id)).all();
}

/**
 * One page of comments, newest first: pending or approved ones (or both), searched in the
 * author's name and e-mail, the text and the post's title; with the counts of the stat cards.
 */
export function pageComments(query: CommentPageQuery): CommentPageDto {
  const db = getDb();
  const { page, pageSize, offset } = windowOf(query);
  const where = and(
    query.status ? eq(comments.isApproved, query.status === 'approved') : undefined,
    containsText(query.q, comments.authorName, comments.authorEmail, comments.content, blogPosts.title),
  );
  const items = db
    .select(adminColumns)
    .from(comments)
    .leftJoin(blogPosts, eq(blogPosts.id, comments.blogPostId))
    .where(where)
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .limit(pageSize)
    .offset(offset)
    .all();
  const total = db.select({ n: count() }).from(comments).leftJoin(blogPosts, eq(blogPosts.id, comments.blogPostId)).where(where).get()!.n;
  const stats = db
    .select({ total: count(), approved: countIf(comments.isApproved) })
    .from(comments)
    .get()!;
  return { items, total, page, pageSize, stats: { total: stats.total, approved: stats.approved, pending: stats.total - stats.approved } };
}

export function approveComment(id: number) {
  const row = getDb().update(comments).set({ isApproved: true, updatedAt: nowMs }).where(eq(comments.id, id)).returning().get();
  if (!row) throw notFound('Comment not found');
  return row;
}

export function deleteComment(id: number): void {
  const result = getDb().delete(comments).where(eq(comments.id, id)).run();
  if (result.changes === 0) throw notFound('Comment not found');
}
