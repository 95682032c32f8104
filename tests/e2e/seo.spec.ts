import { expect, test, type Page } from '@playwright/test';

async function meta(page: Page) {
  return page.evaluate(() => {
    const get = (sel: string, attr = 'content') => document.querySelector(sel)?.getAttribute(attr) ?? null;
    return {
      title: document.title,
      description: get('meta[name="description"]'),
      canonical: get('link[rel="canonical"]', 'href'),
      ogTitle: get('meta[property="og:title"]'),
      ogDescription: get('meta[property="og:description"]'),
      ogType: get('meta[property="og:type"]'),
      ogImage: get('meta[property="og:image"]'),
      ogUrl: get('meta[property="og:url"]'),
      twitterCard: get('meta[name="twitter:card"]'),
      rss: [...document.querySelectorAll('link[rel="alternate"][type="application/rss+xml"]')].map((l) => l.getAttribute('href')),
      jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent ?? 'null')),
    };
  });
}

const types = (ld: unknown[]) => JSON.stringify(ld);

test('every public page type has a unique title, description, canonical URL, OpenGraph and Twitter tags', async ({ page, request, baseURL }) => {
  const posts = (await (await request.get('/api/blog-posts?published=true')).json()) as { slug: string }[];
  const paths = ['/', '/blog', `/blog/${posts[0].slug}`, `/blog/${posts[1].slug}`, '/podcast', '/work-with-me', '/newsletter', '/privacy-policy'];
  const titles = new Set<string>();
  for (const path of paths) {
    await page.goto(path);
    const m = await meta(page);
    expect(m.title, path).toBeTruthy();
    titles.add(m.title);
    expect(m.description?.length ?? 0, `${path} description`).toBeGreaterThan(30);
    expect(m.canonical, path).toBe(new URL(path, baseURL).href);
    expect(m.ogTitle, path).toBeTruthy();
    expect(m.ogDescription, path).toBeTruthy();
    expect(m.ogImage, path).toMatch(/^https?:\/\//);
    expect(m.ogUrl, path).toBe(m.canonical);
    expect(m.twitterCard, path).toBe('summary_large_image');
    expect(m.rss, path).toEqual(expect.arrayContaining(['/rss.xml', '/podcast.xml']));
    expect(m.ogType, path).toBe(path.startsWith('/blog/') ? 'article' : 'website');
  }
  expect(titles.size).toBe(paths.length);
});

test('structured data: Person on the home page, BlogPosting on posts, PodcastSeries on the podcast', async ({ page, request }) => {
  await page.goto('/');
  expect(types((await meta(page)).jsonLd)).toContain('"Person"');
  const posts = (await (await request.get('/api/blog-posts?published=true')).json()) as { slug: string; title: string }[];
  await page.goto(`/blog/${posts[0].slug}`);
  const post = (await meta(page)).jsonLd;
  expect(types(post)).toContain('"BlogPosting"');
  expect(types(post)).toContain(posts[0].title.replaceAll('"', '\\"'));
  await page.goto('/podcast');
  const podcast = types((await meta(page)).jsonLd);
  expect(podcast).toContain('"PodcastSeries"');
  expect(podcast).toContain('"PodcastEpisode"');
});
