// Uploads through the same admin screens when UPLOADTHING_TOKEN is set: the PAY_URL server
// hands files to the UploadThing ingest double (the real `uploadthing` SDK, pointed there by
// UPLOADTHING_INGEST_URL), and the site uses the URLs UploadThing answers.
// The double answers over HTTPS like the real service, so pages load its files under their
// policy (img-src/media-src https:).
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { PAY_URL, UPLOADTHING_DOUBLE_URL } from '../../playwright.config';
import { DEMO_MP3 as MP3, PNG_1X1 as PNG } from '#tests/support/media.ts';
import { CLOSE, loginAs, unique } from './helpers';

const onUploadThing = new RegExp(`^${UPLOADTHING_DOUBLE_URL.replaceAll('.', '\\.')}/f/[A-Za-z0-9_-]+$`);

test.describe('uploads with UploadThing configured', () => {
  test('a featured image goes to UploadThing and the public post shows it from there', async ({ page }) => {
    await loginAs(page, PAY_URL);
    const title = `UploadThing Cover ${unique()}`;
    await page.goto(`${PAY_URL}/admin/blog/new`);
    await page.getByLabel('Title').fill(title);
    await page.getByRole('textbox', { name: 'Content' }).click();
    await page.keyboard.type('A cover stored on UploadThing.');

    await page.getByLabel('Upload Image').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByText('Image uploaded')).toBeVisible();
    const preview = page.getByRole('img', { name: 'Featured image preview' });
    const src = (await preview.getAttribute('src'))!;
    expect(src).toMatch(onUploadThing);
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await expect(page.getByLabel('Image URL')).toHaveValue(src);

    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Post created')).toBeVisible();

    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    await page.goto(`${PAY_URL}/blog/${slug}`);
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    const shown = page.locator(`img[src="${src}"]`);
    await expect(shown).toHaveCount(1);
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    // UploadThing serves the very bytes that were uploaded.
    const image = await page.request.get(src, { headers: CLOSE });
    expect(image.headers()['content-type']).toBe('image/png');
    expect(Buffer.from(await image.body()).equals(PNG)).toBe(true);
  });

  test('an episode’s audio goes to UploadThing with progress, and the feed lists its real length', async ({ page }) => {
    await loginAs(page, PAY_URL);
    await page.goto(`${PAY_URL}/admin/podcast`);
    await page.getByRole('button', { name: 'New Episode' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Episode' });
    const title = `Stored Elsewhere ${unique()}`;
    await dialog.getByLabel('Episode Title').fill(title);

    await dialog.getByLabel('Upload Audio File').setInputFiles(MP3);
    await expect(dialog.getByRole('progressbar', { name: 'Audio upload progress' })).toHaveAttribute('aria-valuenow', '100');
    await expect(page.getByText('Audio uploaded', { exact: true })).toBeVisible();
    await expect(dialog.getByLabel('Duration (seconds)')).toHaveValue('9');
    const audioUrl = await dialog.getByLabel('Audio URL').inputValue();
    expect(audioUrl).toMatch(onUploadThing);

    await dialog.getByRole('switch', { name: 'Published' }).click();
    await dialog.getByRole('button', { name: 'Create Episode' }).click();
    await expect(page.getByText('Episode created', { exact: true })).toBeVisible();

    // Podcast apps seek with byte ranges; UploadThing answers them.
    const part = await page.request.get(audioUrl, { headers: { Range: 'bytes=0-99', ...CLOSE } });
    expect(part.status()).toBe(206);

    const feed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', isArray: (n) => n === 'item' }).parse(
      await (await page.request.get(`${PAY_URL}/podcast.xml`, { headers: CLOSE })).text(),
    );
    const item = (feed.rss.channel.item as { title: string; enclosure: Record<string, string> }[]).find((i) => i.title === title)!;
    // Through the site's counting address, which leads to the file at UploadThing.
    expect(item.enclosure).toEqual({ '@_url': expect.stringMatching(new RegExp(`^${PAY_URL}/podcast/e/\\d+/`)), '@_length': String(readFileSync(MP3).length), '@_type': 'audio/mpeg' });
    const hop = await page.request.get(item.enclosure['@_url'], { maxRedirects: 0, headers: CLOSE });
    expect(hop.headers().location).toBe(audioUrl);
  });
});
