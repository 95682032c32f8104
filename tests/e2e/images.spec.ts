// A phone reading a post with a large photo: Chromium picks a small copy from the srcset.
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { CLOSE, loginAs, unique } from './helpers';

test('a phone-sized viewport downloads a small copy of a 4000x3000 photo, not the original', async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  await loginAs(page, baseURL!);
  const headers = { Origin: baseURL!, ...CLOSE };
  const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .blur(2.5)
    .jpeg({ quality: 80 })
    .toBuffer();
  const slot = (await (await page.request.post('/api/objects/upload', { headers })).json()) as { uploadURL: string };
  const stored = (await (await page.request.put(slot.uploadURL, { data: photo, headers: { ...headers, 'Content-Type': 'image/jpeg' } })).json()) as { url: string };
  const slug = unique('phone-photo-');
  const created = await page.request.post('/api/blog-posts', {
    headers,
    data: {
      title: `A photo for phones ${slug}`,
      slug,
      excerpt: 'One large photo, and what a phone downloads of it.',
      content: `<p>Before.</p><p><img src="${stored.url}" alt="A large photo"></p>`,
      featuredImage: stored.url,
      isPublished: true,
    },
  });
  expect(created.status()).toBe(201);

  // The copies are made in the background; the page offers them once they exist.
  await expect(async () => expect(await (await page.request.get(`/blog/${slug}`)).text()).toContain('<source type="image/avif"')).toPass({ timeout: 30_000 });

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const visitor = await phone.newPage();
  const base = stored.url.replace(/\.jpg$/, '');
  let bytes = 0;
  const fetched: string[] = [];
  visitor.on('response', async (res) => {
    if (!res.url().includes(base)) return;
    fetched.push(new URL(res.url()).pathname);
    bytes += (await res.body()).byteLength;
  });
  await visitor.goto(`/blog/${slug}`);
  await visitor.waitForLoadState('networkidle');
  expect(fetched.length).toBeGreaterThan(0);
  expect(fetched.every((p) => /-480\.(avif|webp)$/.test(p))).toBe(true);
  expect(bytes).toBeLessThan(150 * 1024);
  await phone.close();
});
