// Search and feeds on a real SQLite file, without a server: the services open the database
// named by DATABASE_URL and migrate it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fxp from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as BlogPosts from '#server/content/blog-posts.ts';
import type * as Feeds from '#server/content/feeds.ts';

const dir = mkdtempSync(join(tmpdir(), 'unit-content-'));
process.env.DATABASE_URL = join(dir, 'site.db');
process.env.UPLOADS_DIR = join(dir, 'uploads');
process.env.SITE_URL = 'https://coach.example';

type Services = { posts: typeof BlogPosts; feeds: typeof Feeds };
let s: Services;
beforeAll(async () => {
  s = { posts: await import('#server/content/blog-posts.ts'), feeds: await import('#server/content/feeds.ts') };
  const { getDb } = await import('#server/db.ts');
  const { users } = await import('#db/schema/auth.ts');
  getDb().insert(users).values({ id: 'author', name: 'Author', username: 'author', email: 'author@example.com', isAdmin: true, isApproved: true }).run();
  const post = (title: string, slug: string, content: string, isPublished = true) =>
    s.posts.createPost({ title, slug, excerpt: null, content, featuredImage: null, category: 'Technology', isPublished }, 'author');
  post('100% remote_teams', 'remote-teams', '<p>Working from anywhere</p>');
  post('A draft', 'a-draft', '<p>Not yet</p>', false);
  post('Odd ]]> characters \u0001 & <tags>', 'odd-characters', '<p>Text with ]]> and \u0002 and <a href="/blog/x">a link</a></p>');
});

describe('search', () => {
  it('treats % and _ as themselves in short searches, and never finds drafts', () => {
    expect(s.posts.searchPublishedPosts({ q: '%' }).items.map((p) => p.slug)).toEqual(['remote-teams']);
    expect(s.posts.searchPublishedPosts({ q: '_' }).items.map((p) => p.slug)).toEqual(['remote-teams']);
    expect(s.posts.searchPublishedPosts({ q: 'draft' }).total).toBe(0);
  });

  it('takes quotes and control characters in longer searches without failing', () => {
    expect(s.posts.searchPublishedPosts({ q: 'remote"' }).total).toBe(0);
    expect(s.posts.searchPublishedPosts({ q: 'remote\u0000' }).items.map((p) => p.slug)).toEqual(['remote-teams']);
  });
});

describe('feeds', () => {
  const { XMLValidator } = fxp as unknown as { XMLValidator: { validate: (xml: string) => true | { err: { msg: string } } } };

  it('the blog feed is well-formed, lists published posts only, with absolute links', () => {
    const xml = s.feeds.blogFeed();
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<link>https://coach.example/blog/remote-teams</link>');
    expect(xml).toContain('href="https://coach.example/blog/x"');
    expect(xml).not.toContain('a-draft');
    // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });

  it('the podcast feed and the sitemap are well-formed', () => {
    expect(XMLValidator.validate(s.feeds.podcastFeed())).toBe(true);
    const map = s.feeds.sitemap();
    expect(XMLValidator.validate(map)).toBe(true);
    expect(map).toContain('<loc>https://coach.example/blog/remote-teams</loc>');
    expect(map).not.toContain('a-draft');
  });
});
