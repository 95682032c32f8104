// Images and videos in a post body, from the editor's toolbar to the public page and the feed.
import { expect, request as http, test } from '@playwright/test';
import { getJson, loginAs, startNewPost, unique } from './helpers';

test('an image needs its alt text; a YouTube link becomes the privacy-enhanced player, and a link in the feed', async ({ page, baseURL }) => {
  await loginAs(page, baseURL!);
  const title = `Media Post ${unique()}`;
  await startNewPost(page, title, 'A post with a picture and a video in it, for the readers.');

  await page.getByRole('button', { name: 'Image', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Insert Image' });
  await dialog.getByLabel('Image address').fill('https://images.example.com/harbour.jpg');
  await dialog.getByRole('button', { name: 'Insert Image' }).click();
  await expect(dialog.getByText('Describe the image for people who cannot see it')).toBeVisible();
  await dialog.getByLabel('Alt text').fill('The harbour at dawn');
  await dialog.getByRole('button', { name: 'Insert Image' }).click();
  await expect(dialog).toBeHidden();
  const editor = page.getByRole('textbox', { name: 'Content' });
  await expect(editor.locator('img[alt="The harbour at dawn"]')).toHaveAttribute('src', 'https://images.example.com/harbour.jpg');

  // Not a video address: refused with a message, nothing inserted.
  page.once('dialog', (d) => void d.accept('https://example.com/not-a-video'));
  await page.getByRole('button', { name: 'Video', exact: true }).click();
  await expect(page.getByText('Enter the address of a YouTube or Vimeo video.')).toBeVisible();
  await expect(editor.locator('iframe')).toHaveCount(0);

  page.once('dialog', (d) => void d.accept('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10s'));
  await page.getByRole('button', { name: 'Video', exact: true }).click();
  await expect(editor.locator('iframe')).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
  await expect(editor.locator('img[alt="The harbour at dawn"]')).toHaveCount(1);

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/blog$/);
  const post = (await getJson<{ title: string; slug: string }[]>(page.request, '/api/blog-posts')).find((p) => p.title === title)!;

  const visitor = await http.newContext({ baseURL });
  const res = await visitor.get(`/blog/${post.slug}`);
  const html = await res.text();
  expect(html).toMatch(/<img [^>]*src="https:\/\/images\.example\.com\/harbour\.jpg" alt="The harbour at dawn"/);
  expect(html).toMatch(/<iframe [^>]*src="https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ"/);
  // The page may frame that player and no other site.
  const csp = res.headers()['content-security-policy'] ?? /<meta http-equiv="content-security-policy" content="([^"]+)"/i.exec(html)?.[1] ?? '';
  expect(csp).toMatch(/frame-src [^;]*https:\/\/www\.youtube-nocookie\.com/);
  const feed = await (await visitor.get('/rss.xml')).text();
  expect(feed).toContain('<a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ">Watch the video</a>');
  expect(feed).not.toContain('<iframe');
  await visitor.dispose();
});
