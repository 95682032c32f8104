// Public forms posted without JavaScript: the same routes take the form-encoded post with the
// same rules and answer with a 303 back to the page, which shows the message once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments, newsletterSubscribers } from '#db/schema/content.ts';
import { createPost, serverWithClients, submitForm, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
serverWithClients((s) => ({ server, admin } = s));

/** Posts a form as a browser without JavaScript would. */
const postForm = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) => submitForm(server, path, fields, headers);

/** The page the 303 leads to, fetched with the flash cookie it set. */
async function follow(res: Response) {
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('site.flash='))!
    .split(';')[0];
  const page = await fetch(new URL(res.headers.get('location')!, server.url), { headers: { Cookie: cookie } });
  return { page, html: await page.text(), cookie };
}

describe('a newsletter form posted without JavaScript', () => {
  it('subscribes and comes back to the form with the message, once', async () => {
    const res = await postForm('/api/newsletter/subscribe', { _form: 'home-newsletter', _return: '/#newsletter', email: 'NoScript@Example.com', website: '' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/#newsletter');
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'noscript@example.com')).all()).toHaveLength(1);
    const { page, html, cookie } = await follow(res);
    expect(page.headers.get('x-cache')).toBeNull();
    expect(html).toContain('Thanks for subscribing!');
    expect(page.headers.getSetCookie().some((c) => c.startsWith('site.flash=;'))).toBe(true);
    // Taken once: the same cookie again shows nothing.
    expect(await (await fetch(`${server.url}/`, { headers: { Cookie: cookie } })).text()).not.toContain('Thanks for subscribing!');
  });

  it('refuses a bad address with the field message and what was typed, storing nothing', async () => {
    const res = await postForm('/api/newsletter/subscribe', { _form: 'get-started', _return: '/work-with-me#get-started', email: 'nobody@localhost', name: 'Nia' });
    expect(res.status).toBe(303);
    const { html } = await follow(res);
    expect(html).toContain('Valid email is required');
    expect(html).toContain('value="nobody@localhost"');
    expect(html).toContain('value="Nia"');
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'nobody@localhost')).all()).toEqual([]);
  });

  it('stores nothing when the honeypot is filled, yet answers like success', async () => {
    const res = await postForm('/api/newsletter/subscribe', { _form: 'home-newsletter', _return: '/#newsletter', email: 'robot@example.com', website: 'http://spam.example' });
    expect((await follow(res)).html).toContain('Thanks for subscribing!');
    expect(server.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'robot@example.com')).all()).toEqual([]);
  });

  it('never sends the browser to another site or to the API, and ignores a made-up flash cookie', async () => {
    for (const target of ['//evil.example/x', 'https://evil.example/', '/api/user', '\\\\evil.example', 'javascript:alert(1)']) {
      const res = await postForm('/api/newsletter/subscribe', { _form: 'home-newsletter', _return: target, email: `r${target.length}@example.com` });
      expect(res.headers.get('location'), target).toBe('/');
    }
    const forged = await fetch(`${server.url}/`, { headers: { Cookie: 'site.flash=made-up-by-someone' } });
    expect(forged.status).toBe(200);
    expect(await forged.text()).not.toContain('Thanks for subscribing!');
  });

  it('comes back to a return path with characters a header cannot carry as they are, percent-encoded', async () => {
    const res = await postForm('/api/newsletter/subscribe', { _form: 'home-newsletter', _return: '/?ref=ā€😀\ud800#é', email: 'unicode-return@example.com', website: '' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/?ref=%C4%81%E2%82%AC%F0%9F%98%80%EF%BF%BD#%C3%A9');
    expect((await follow(res)).html).toContain('Thanks for subscribing!');
    // The admin's preview opens such a page the same way.
    const preview = await fetch(`${server.url}/api/admin/site/preview?to=${encodeURIComponent('/blog?q=ā')}`, { redirect: 'manual', headers: { Cookie: admin.cookie } });
    expect(preview.status).toBe(303);
    expect(preview.headers.get('location')).toBe('/blog?q=%C4%81');
  });

  it('refuses a cross-site form post (the newsletter sign-up excepted: its snippet is pasted on other sites)', async () => {
    const res = await postForm('/api/password-reset', { email: 'csrf@example.com' }, { Origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });
});

describe('the comment form posted without JavaScript', () => {
  it('submits for approval, or comes back with each field error and the comment as typed', async () => {
    const post = createPost(server, admin.user.id);
    // As the form on the post's page sends it, coming back to the form's heading.
    const postComment = (fields: { authorName: string; authorEmail: string; content: string }) =>
      postForm(`/api/blog-posts/${post.id}/comments`, { _form: 'comment', _return: `/blog/${post.slug}#comment-form-heading`, ...fields });
    const bad = await postComment({ authorName: '', authorEmail: 'x@example.com', content: 'Kept as typed' });
    const again = await follow(bad);
    expect(again.html).toContain('Name is required');
    expect(again.html).toContain('Kept as typed');
    const good = await postComment({ authorName: 'Nadia', authorEmail: 'n@example.com', content: 'A comment without JavaScript' });
    expect(good.headers.get('location')).toBe(`/blog/${post.slug}#comment-form-heading`);
    expect((await follow(good)).html).toContain('Your comment has been submitted for approval.');
    expect(
      server.db
        .select()
        .from(comments)
        .where(eq(comments.blogPostId, post.id))
        .all()
        .map((c) => c.content),
    ).toEqual(['A comment without JavaScript']);
  });
});

describe('log in without JavaScript', () => {
  it('signs in and goes on to the dashboard; a wrong password comes back with the message and no password', async () => {
    const wrong = await postForm('/api/login', { _form: 'login', _return: '/auth', username: admin.user.username, password: 'not-the-password' });
    expect(wrong.headers.get('location')).toBe('/auth');
    const { html } = await follow(wrong);
    expect(html).toContain(`value="${admin.user.username}"`);
    expect(html).not.toContain('not-the-password');
    const right = await postForm('/api/login', { _form: 'login', _return: '/auth', username: admin.user.username, password: admin.user.password });
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/admin/dashboard');
    const session = right.headers
      .getSetCookie()
      .find((c) => c.includes('session_token'))!
      .split(';')[0];
    const me = await fetch(`${server.url}/api/user`, { headers: { Cookie: session } });
    expect(((await me.json()) as { username: string }).username).toBe(admin.user.username);
  });
});

describe('a site served over https', () => {
  // A server of its own: the site's address decides. The test still talks plain http to it.
  let secure: TestServer;
  const SITE_URL = 'https://forms.example';
  beforeAll(async () => {
    secure = await startServer({ SITE_URL });
  });
  afterAll(async () => {
    await secure?.stop();
  });

  it('sets the flash cookie Secure, and clears it Secure', async () => {
    const res = await submitForm(secure, '/api/newsletter/subscribe', { _form: 'home-newsletter', _return: '/#newsletter', email: 'secure-flash@example.com', website: '' }, { Origin: SITE_URL });
    expect(res.status).toBe(303);
    const set = res.headers.getSetCookie().find((c) => c.startsWith('site.flash='))!;
    expect(set.split(/;\s*/)).toContain('Secure');
    const page = await fetch(`${secure.url}/`, { headers: { Cookie: set.split(';')[0] } });
    const cleared = page.headers.getSetCookie().find((c) => c.startsWith('site.flash=;'))!;
    expect(cleared.split(/;\s*/)).toContain('Secure');
  });
});
