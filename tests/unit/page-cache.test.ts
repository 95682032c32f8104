// Page-cache keys and what may be cached, without a server.
import { describe, expect, it } from 'vitest';
import { cacheKey, isCacheable, pickEncoding } from '#server/http/page-cache.ts';

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
