// Page-cache keys and what may be cached, without a server.
import { describe, expect, it } from 'vitest';
import { cached, cacheKey, contentChanged, isCacheable, pickEncoding } from '#server/http/pages/page-cache.ts';

const get = (path: string, method = 'GET') => [new Request(`http://site.test${path}`, { method }), new URL(`http://site.test${path}`)] as const;

describe('cacheKey', () => {
  it('keeps only the parameters a page reads, in a stable form', () => {
    expect(cacheKey('/blog', '?q=ai&page=2&utm_source=x')).toBe('/blog?q=ai&page=2');
    expect(cacheKey('/blog', '?x=1')).toBe('/blog');
    expect(cacheKey('/', '?anything=1')).toBe('/');
    expect(cacheKey('/auth', '?tab=register&next=/admin')).toBe('/auth?tab=register');
    expect(cacheKey('/blog', '')).toBe('/blog');
    expect(cacheKey('/blog', '?tag=remote-work&fbclid=1')).toBe('/blog?tag=remote-work');
    expect(cacheKey('/api/blog-posts/search', '?tag=ai&page=2')).toBe('/api/blog-posts/search?tag=ai&page=2');
    // The same page at its trailing-slash address: a search there is not kept as '/blog/' itself.
    expect(cacheKey('/blog/', '?q=anything')).toBe('/blog/?q=anything');
    expect(cacheKey('/blog/', '?x=1')).toBe('/blog/');
  });
});

describe('isCacheable', () => {
  it('caches anonymous GETs of pages and feeds, never the API, admin, files, checkout or e-mail links', () => {
    expect(isCacheable(...get('/blog'), false)).toBe(true);
    expect(isCacheable(...get('/rss.xml'), false)).toBe(true);
    expect(isCacheable(...get('/sitemap-2.xml'), false)).toBe(true);
    expect(isCacheable(...get('/blog'), true)).toBe(false);
    expect(isCacheable(...get('/blog', 'POST'), false)).toBe(false);
    for (const path of ['/api/products', '/admin/blog', '/uploads/2026/01/a.jpg', '/download/1.abc', '/checkout/success', '/newsletter/confirm?token=x', '/auth/reset?token=y', '/other.xml']) {
      expect(isCacheable(...get(path), false), path).toBe(false);
    }
    expect(isCacheable(...get('/api/blog-posts/search?q=a'), false)).toBe(true);
  });
});

describe('pickEncoding', () => {
  it('prefers brotli, then gzip', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe('cached', () => {
  const page = (body: string) => new Response(body, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });

  it('never hands a request that came after a delete the render that started before it', async () => {
    let finishOld!: () => void;
    const oldRender = () => new Promise<Response>((resolve) => (finishOld = () => resolve(page('<p>the deleted post</p>'))));
    const before = cached('/unit-delete', new Request('http://site.test/unit-delete'), oldRender);
    // The post is deleted while that render is under way; then another visitor asks.
    contentChanged({ scope: 'all', now: true });
    const after = cached('/unit-delete', new Request('http://site.test/unit-delete'), () => Promise.resolve(page('<p>no such post</p>')));
    finishOld();
    expect(await (await after).text()).toBe('<p>no such post</p>');
    expect(await (await before).text()).toBe('<p>the deleted post</p>');
    // And what is kept afterwards is the newer render.
    const later = await cached('/unit-delete', new Request('http://site.test/unit-delete'), () => Promise.resolve(page('<p>rendered again</p>')));
    expect(await later.text()).toBe('<p>no such post</p>');
  });

  it('still shares one render between requests that arrive without a write between them', async () => {
    let renders = 0;
    let finish!: () => void;
    const render = () => {
      renders += 1;
      return new Promise<Response>((resolve) => (finish = () => resolve(page('<p>shared</p>'))));
    };
    const a = cached('/unit-shared', new Request('http://site.test/unit-shared'), render);
    const b = cached('/unit-shared', new Request('http://site.test/unit-shared'), render);
    finish();
    expect(await (await a).text()).toBe('<p>shared</p>');
    expect(await (await b).text()).toBe('<p>shared</p>');
    expect(renders).toBe(1);
  });
});
