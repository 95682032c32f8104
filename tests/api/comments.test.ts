import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { comments } from '#db/schema/content.ts';
import { Client, createComment, createPost, serverWithClients, unique, type SessionClient } from '#tests/support/factories.ts';
import { refusedCallers } from '#tests/support/guards.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s));

const commentBody = (over: Record<string, unknown> = {}) => ({ authorName: 'Ada Reader', authorEmail: `${unique('ada')}@example.com`, content: `A thoughtful comment ${unique('c')}`, ...over });

const commentsOf = (postId: number) => server.db.select().from(comments).where(eq(comments.blogPostId, postId)).all();
const commentById = (id: number) => server.db.select().from(comments).where(eq(comments.id, id)).get();
const publicComments = (postId: number) => new Client(server).get(`/api/blog-posts/${postId}/comments`);

describe('submitting a comment', () => {
  it('stores a pending comment (201) that the public list does not show', async () => {
    const post = createPost(server, admin.user.id);
    const body = commentBody();
    const res = await new Client(server).post(`/api/blog-posts/${post.id}/comments`, body);
    expect(res.status).toBe(201);
    const rows = commentsOf(post.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ authorName: body.authorName, authorEmail: body.authorEmail, content: body.content, isApproved: false });
    const list = await publicComments(post.id);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    expect(list.text).not.toContain(body.content);
  });

  it('ignores an isApproved flag sent by the visitor', async () => {
    const post = createPost(server, admin.user.id);
    const res = await new Client(server).post(`/api/blog-posts/${post.id}/comments`, commentBody({ isApproved: true }));
    expect(res.status).toBe(201);
    expect(commentsOf(post.id)[0].isApproved).toBe(false);
    expect((await publicComments(post.id)).body).toEqual([]);
  });

  it.each([
    ['a missing authorName', { authorName: undefined }, 'authorName'],
    ['a blank authorName', { authorName: '   ' }, 'authorName'],
    ['a missing authorEmail', { authorEmail: undefined }, 'authorEmail'],
    ['a bad authorEmail', { authorEmail: 'not-an-email' }, 'authorEmail'],
    ['a missing content', { content: undefined }, 'content'],
    ['an empty content', { content: '' }, 'content'],
  ])('refuses %s with 400 naming the field, and stores nothing', async (_label, over, field) => {
    const post = createPost(server, admin.user.id);
    const res = await new Client(server).post(`/api/blog-posts/${post.id}/comments`, commentBody(over));
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    const issue = res.body.issues.find((i: { path: string[] }) => i.path.join('.') === field);
    expect(issue).toBeDefined();
    expect(typeof issue.message).toBe('string');
    expect(commentsOf(post.id)).toEqual([]);
  });

  it('refuses a comment on a draft with 404 and stores nothing', async () => {
    const draft = createPost(server, admin.user.id, { isPublished: false, publishedAt: null });
    const res = await new Client(server).post(`/api/blog-posts/${draft.id}/comments`, commentBody());
    expect(res.status).toBe(404);
    expect(commentsOf(draft.id)).toEqual([]);
  });

  it('refuses a comment on an unknown or malformed post id with 404', async () => {
    const body = commentBody();
    expect((await new Client(server).post('/api/blog-posts/987654/comments', body)).status).toBe(404);
    expect((await new Client(server).post('/api/blog-posts/abc/comments', body)).status).toBe(404);
    expect(server.db.select().from(comments).where(eq(comments.authorEmail, body.authorEmail)).all()).toEqual([]);
  });

  it('answers 404 for the public comment list of a draft or unknown post', async () => {
    const draft = createPost(server, admin.user.id, { isPublished: false, publishedAt: null });
    createComment(server, draft.id, { isApproved: true, content: 'Hidden with its draft' });
    const res = await publicComments(draft.id);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('Hidden with its draft');
    expect((await publicComments(987654)).status).toBe(404);
  });
});

describe('the public comment list', () => {
  it('shows approved comments with id, authorName, content, createdAt and never an e-mail', async () => {
    const post = createPost(server, admin.user.id);
    const email = `${unique('secret')}@private.example`;
    const approved = createComment(server, post.id, { isApproved: true, authorEmail: email, authorName: 'Visible Name' });
    createComment(server, post.id, { isApproved: false, authorEmail: email, content: 'Still pending' });
    const res = await publicComments(post.id);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ id: approved.id, authorName: 'Visible Name', content: approved.content });
    expect(typeof res.body[0].createdAt).toBe('string');
    expect(res.text).not.toContain(email);
    expect(res.text).not.toMatch(/authorEmail/i);
    expect(res.text).not.toContain('Still pending');
  });

  it('shows only the comments of the post asked for', async () => {
    const a = createPost(server, admin.user.id);
    const b = createPost(server, admin.user.id);
    createComment(server, b.id, { isApproved: true, content: 'Belongs to B' });
    const res = await publicComments(a.id);
    expect(res.body).toEqual([]);
  });
});

describe('moderation', () => {
  it('lists every comment for the admin with authorEmail and postTitle', async () => {
    const post = createPost(server, admin.user.id, { title: 'Moderated Post' });
    const email = `${unique('mod')}@example.com`;
    const c = createComment(server, post.id, { authorEmail: email, authorName: 'Mod Tester' });
    const res = await admin.get('/api/admin/comments');
    expect(res.status).toBe(200);
    const row = res.body.find((x: { id: number }) => x.id === c.id);
    expect(row).toMatchObject({ id: c.id, authorName: 'Mod Tester', authorEmail: email, content: c.content, blogPostId: post.id, isApproved: false, postTitle: 'Moderated Post' });
  });

  it('lists comments of drafts for the admin too', async () => {
    const draft = createPost(server, admin.user.id, { isPublished: false, publishedAt: null, title: 'Draft With Comment' });
    const c = createComment(server, draft.id);
    const res = await admin.get('/api/admin/comments');
    expect(res.body.find((x: { id: number }) => x.id === c.id)?.postTitle).toBe('Draft With Comment');
  });

  it('approving a comment makes it appear publicly', async () => {
    const post = createPost(server, admin.user.id);
    const submitted = await new Client(server).post(`/api/blog-posts/${post.id}/comments`, commentBody());
    expect(submitted.status).toBe(201);
    const id = commentsOf(post.id)[0].id;
    expect((await publicComments(post.id)).body).toEqual([]);

    const res = await admin.patch(`/api/admin/comments/${id}/approve`);
    expect(res.status).toBe(200);
    expect(commentById(id)?.isApproved).toBe(true);
    const list = await publicComments(post.id);
    expect(list.body.map((x: { id: number }) => x.id)).toEqual([id]);
  });

  it('approving twice is harmless', async () => {
    const post = createPost(server, admin.user.id);
    const c = createComment(server, post.id);
    expect((await admin.patch(`/api/admin/comments/${c.id}/approve`)).status).toBe(200);
    expect((await admin.patch(`/api/admin/comments/${c.id}/approve`)).status).toBe(200);
    expect((await publicComments(post.id)).body).toHaveLength(1);
  });

  it('deleting a comment removes it from the admin and public lists', async () => {
    const post = createPost(server, admin.user.id);
    const pending = createComment(server, post.id);
    const approved = createComment(server, post.id, { isApproved: true });
    expect((await admin.delete(`/api/admin/comments/${pending.id}`)).status).toBe(200);
    expect((await admin.delete(`/api/admin/comments/${approved.id}`)).status).toBe(200);
    expect(commentsOf(post.id)).toEqual([]);
    expect((await publicComments(post.id)).body).toEqual([]);
    const all = await admin.get('/api/admin/comments');
    const listed = all.body.map((x: { id: number }) => x.id);
    expect(listed).not.toContain(pending.id);
    expect(listed).not.toContain(approved.id);
  });

  it('answers 404 for an unknown or malformed comment id', async () => {
    expect((await admin.patch('/api/admin/comments/987654/approve')).status).toBe(404);
    expect((await admin.delete('/api/admin/comments/987654')).status).toBe(404);
    expect((await admin.patch('/api/admin/comments/abc/approve')).status).toBe(404);
    expect((await admin.delete('/api/admin/comments/abc')).status).toBe(404);
  });
});

describe('moderation guards', () => {
  it.each(refusedCallers(() => ({ server, user }), { email: 'guarded@example.com' }, { email: 'guarded2@example.com' }))(
    'answers $status to $who on every admin comment route and changes nothing',
    async ({ as, status, email }) => {
      const post = createPost(server, admin.user.id);
      const c = createComment(server, post.id, { authorEmail: email });
      const caller = as();
      const list = await caller.get('/api/admin/comments');
      expect(list.status).toBe(status);
      expect(list.text).not.toContain(email);
      expect((await caller.patch(`/api/admin/comments/${c.id}/approve`)).status).toBe(status);
      expect((await caller.delete(`/api/admin/comments/${c.id}`)).status).toBe(status);
      expect(commentById(c.id)).toMatchObject({ isApproved: false });
    },
  );
});
