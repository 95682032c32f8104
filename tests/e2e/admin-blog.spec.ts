import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { E2E_ADMIN, EMPTY_URL } from '../../playwright.config';
import { expectNoSeriousA11yViolations } from '#tests/support/page-checks.ts';
import { CLOSE, getJson, loginAs, startNewPost, unique } from './helpers';

interface ApiPost {
  id: number;
  title: string;
  slug: string;
  content: string;
  isPublished: boolean;
  featuredImage: string | null;
  category: string;
}

const SEEDED_DRAFT = 'Runbooks Before Headcount: Scaling Operations Without Scaling Chaos';
const SEEDED_PUBLISHED = "The Burnout I Didn't See Coming";
const WXR = readFileSync(new URL('../fixtures/wordpress-export.xml', import.meta.url));
const WXR_SLUGS = ['why-i-dont-write-roadmaps-anymore', 'five-questions-database', 'notes-on-hiring-draft-unfinished', 'quarterly-review-template', 'about'];

const adminPosts = (request: APIRequestContext) => getJson<ApiPost[]>(request, '/api/blog-posts');

/** A real PNG (solid brand blue), so the server's byte sniffing accepts it. */
function png(width = 48, height = 27): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [0x25, 0x53, 0xe6]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

const cards = (page: Page) => page.getByRole('list', { name: 'Blog posts' }).getByRole('listitem');
const card = (page: Page, title: string) => cards(page).filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const stat = (page: Page, label: string) => page.getByRole('region', { name: 'Post statistics' }).locator('> div').filter({ hasText: label });

test.describe('admin blog as an admin', () => {
  test.beforeEach(async ({ page, baseURL }) => {
    await loginAs(page, baseURL!);
  });

  test('the management screen counts and lists every post, drafts included', async ({ page }) => {
    const posts = await adminPosts(page.request);
    const published = posts.filter((p) => p.isPublished).length;
    await page.goto('/admin/blog');
    await expect(page.getByRole('heading', { name: 'Blog Management', level: 1 })).toBeVisible();
    await expect(stat(page, 'Total Posts')).toContainText(String(posts.length));
    await expect(stat(page, 'Published')).toContainText(String(published));
    await expect(stat(page, 'Drafts')).toContainText(String(posts.length - published));
    await expect(cards(page)).toHaveCount(posts.length);

    const draft = card(page, SEEDED_DRAFT);
    await expect(draft.getByText('Draft', { exact: true })).toBeVisible();
    await expect(draft.getByText(/^\d+ min read$/)).toBeVisible();
    await expect(draft.getByText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();
    // Drafts have no view link; published posts link to their public page.
    await expect(page.getByRole('link', { name: `View post ${SEEDED_DRAFT}` })).toHaveCount(0);
    await expect(page.getByRole('link', { name: `Edit post ${SEEDED_DRAFT}` })).toHaveAttribute('href', /^\/admin\/blog\/edit\/\d+$/);
    const seeded = posts.find((p) => p.title === SEEDED_PUBLISHED)!;
    await expect(card(page, SEEDED_PUBLISHED).getByText('Published', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: `View post ${SEEDED_PUBLISHED}` })).toHaveAttribute('href', `/blog/${seeded.slug}`);
  });

  test('search matches title or excerpt and combines with the status filter', async ({ page }) => {
    await page.goto('/admin/blog');
    const search = page.getByPlaceholder('Search blog posts...');
    await search.fill('RUNBOOKS');
    await expect(cards(page)).toHaveCount(1);
    await expect(card(page, SEEDED_DRAFT)).toBeVisible();

    // Only the excerpt of the MVP post says 'ruthless list'.
    await search.fill('ruthless list');
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText('Shipping an MVP in Six Weeks');

    await search.fill('burnout');
    await expect(cards(page)).toHaveCount(1);
    await page.getByRole('radio', { name: 'Drafts' }).click();
    await expect(page.getByText('No posts found')).toBeVisible();
    await expect(page.getByText('No posts match your current filters.')).toBeVisible();
    await page.getByRole('radio', { name: 'Published' }).click();
    await expect(card(page, SEEDED_PUBLISHED)).toBeVisible();
    await page.getByRole('radio', { name: 'Drafts' }).click();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(search).toHaveValue('');
    await expect(page.getByRole('radio', { name: 'All Posts' })).toHaveAttribute('aria-checked', 'true');

    await page.getByRole('radio', { name: 'Drafts' }).click();
    const drafts = (await adminPosts(page.request)).filter((p) => !p.isPublished);
    await expect(cards(page)).toHaveCount(drafts.length);
    for (const text of await cards(page).allInnerTexts()) expect(text).toContain('Draft');
    await page.getByRole('radio', { name: 'All Posts' }).click();
    await expect(cards(page)).toHaveCount((await adminPosts(page.request)).length);
  });

  test('create a draft with the editor, then publish it; the public API serves the formatted HTML', async ({ page, baseURL, playwright }) => {
    const title = `Editor Post ${unique()}`;
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    await page.goto('/admin/blog');
    await page.getByRole('link', { name: 'New Post' }).click();
    await expect(page).toHaveURL(/\/admin\/blog\/new$/);
    await expect(page.getByRole('heading', { name: 'Create New Post' })).toBeVisible();
    await expect(page.getByText('URL-friendly version of the title')).toBeVisible();
    await expect(page.getByText('Short summary shown in post listings')).toBeVisible();
    await expect(page.getByText('Choose the most relevant category')).toBeVisible();
    await expect(page.getByText('Make this post visible to the public')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Preview' })).toHaveCount(0);

    // Nothing filled in: the schema's messages, next to their fields, and nothing sent.
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expect(page.getByText('Slug is required')).toBeVisible();
    await expect(page.getByText('Content is required')).toBeVisible();
    await expect(page.getByLabel('Title')).toBeFocused();

    // The slug follows the title (spec rule) until it is edited by hand.
    await page.getByLabel('Title').fill(title);
    await expect(page.getByLabel('Slug')).toHaveValue(slug);
    await expect(page.getByText('Title is required')).toHaveCount(0);
    await page.getByLabel('Slug').fill('hand-made');
    await page.getByLabel('Title').fill(`${title}!`);
    await expect(page.getByLabel('Slug')).toHaveValue('hand-made');
    await page.getByLabel('Slug').fill('');
    await page.getByLabel('Title').fill(title);
    await expect(page.getByLabel('Slug')).toHaveValue(slug);

    await page.getByLabel('Excerpt').fill('A post written in the browser test.');
    await page.getByLabel('Category').selectOption('Technology');

    // The editor: toolbar and keyboard shortcuts.
    const editor = page.getByRole('textbox', { name: 'Content' });
    await expect(editor).toBeVisible();
    expect((await editor.boundingBox())!.height).toBeGreaterThanOrEqual(300);
    await expect(editor.locator('p[data-placeholder="Start writing..."]')).toHaveCount(1);
    await editor.click();
    await page.keyboard.type('Plain start, ');
    const bold = page.getByRole('button', { name: 'Bold' });
    await bold.click();
    await expect(bold).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.type('toolbar bold');
    await bold.click();
    await expect(bold).toHaveAttribute('aria-pressed', 'false');
    await page.keyboard.type(', then ');
    await page.keyboard.press('Control+b');
    await expect(bold).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.type('shortcut bold');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' and ');
    await page.keyboard.press('Control+i');
    await page.keyboard.type('italic');
    await page.keyboard.press('Control+i');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Heading 2' }).click();
    await expect(page.getByRole('button', { name: 'Heading 2' })).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.type('Section heading');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Read the ');
    page.once('dialog', async (dialog) => {
      expect(dialog.type()).toBe('prompt');
      expect(dialog.message()).toBe('Enter URL:');
      await dialog.accept('https://example.com/guide');
    });
    await page.getByRole('button', { name: 'Link' }).click();
    await expect(editor.locator('a[href="https://example.com/guide"]')).toHaveText('https://example.com/guide');
    await page.getByRole('button', { name: 'Align center' }).click();
    await expect(page.getByRole('button', { name: 'Align center' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Align left' })).toHaveAttribute('aria-pressed', 'false');

    // The toolbar is one tab stop; arrow keys move along it.
    await bold.focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('button', { name: 'Italic' })).toBeFocused();
    await page.keyboard.press('End');
    await expect(page.getByRole('button', { name: 'Align right' })).toBeFocused();

    // A slug that is taken: the server's 409 shows on the field.
    const taken = (await adminPosts(page.request)).find((p) => p.title === SEEDED_PUBLISHED)!.slug;
    await page.getByLabel('Slug').fill(taken);
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(page.getByText('A post with this slug already exists')).toBeVisible();
    await expect(page.getByText('Failed to create blog post. Please try again.')).toBeVisible();
    await page.getByLabel('Slug').fill(slug);

    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(page.getByText('Post created')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/blog$/);
    await expect(card(page, title).getByText('Draft', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: `View post ${title}` })).toHaveCount(0);

    const anonymous = await playwright.request.newContext({ baseURL });
    expect((await anonymous.get(`/api/blog-posts/slug/${slug}`, { headers: CLOSE })).status()).toBe(404);

    // Edit: the form holds what was saved; Publish makes it public.
    await page.getByRole('link', { name: `Edit post ${title}` }).click();
    await expect(page.getByRole('heading', { name: 'Edit Post' })).toBeVisible();
    await expect(page.getByLabel('Title')).toHaveValue(title);
    await expect(page.getByLabel('Slug')).toHaveValue(slug);
    await expect(page.getByLabel('Category')).toHaveValue('Technology');
    await expect(page.getByRole('switch', { name: 'Published' })).toHaveAttribute('aria-checked', 'false');
    await expect(editor.locator('strong', { hasText: 'shortcut bold' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Preview' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Post updated')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/blog$/);
    await expect(card(page, title).getByText('Published', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: `View post ${title}` })).toHaveAttribute('href', `/blog/${slug}`);

    const res = await anonymous.get(`/api/blog-posts/slug/${slug}`, { headers: CLOSE });
    expect(res.status()).toBe(200);
    const post = (await res.json()) as ApiPost;
    expect(post).toMatchObject({ title, slug, category: 'Technology', isPublished: true });
    expect(post.content).toContain('<strong>toolbar bold</strong>');
    expect(post.content).toContain('<strong>shortcut bold</strong>');
    expect(post.content).toContain('<em>italic</em>');
    expect(post.content).toContain('<h2>Section heading</h2>');
    expect(post.content).toContain('<p style="text-align:center">Read the <a ');
    expect(post.content).toMatch(/<a [^>]*href="https:\/\/example\.com\/guide"[^>]*>https:\/\/example\.com\/guide<\/a><\/p>$/);
    expect(post.content).toMatch(/<a [^>]*target="_blank"/);
    await anonymous.dispose();

    // A published post is edited with Update, and has a Preview link opening a new tab.
    await page.getByRole('link', { name: `Edit post ${title}` }).click();
    await expect(page.getByRole('button', { name: 'Update' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Publish' })).toHaveCount(0);
    const preview = page.getByRole('link', { name: 'Preview' });
    await expect(preview).toHaveAttribute('href', `/blog/${slug}`);
    await expect(preview).toHaveAttribute('target', '_blank');
    // Removing a link: an empty answer to the prompt.
    await editor.locator('a[href="https://example.com/guide"]').click();
    await expect(page.getByRole('button', { name: 'Link' })).toHaveAttribute('aria-pressed', 'true');
    page.once('dialog', (dialog) => dialog.accept(''));
    await page.getByRole('button', { name: 'Link' }).click();
    await expect(editor.locator('a')).toHaveCount(0);
    // Only web and e-mail addresses are accepted.
    page.once('dialog', (dialog) => dialog.accept('javascript:alert(1)'));
    await page.getByRole('button', { name: 'Link' }).click();
    await expect(page.getByText('Invalid link')).toBeVisible();
    await expect(editor.locator('a')).toHaveCount(0);

    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Post updated')).toBeVisible();
    const updated = (await adminPosts(page.request)).find((p) => p.slug === slug)!;
    expect(updated.isPublished).toBe(true);
    expect(updated.content).not.toContain('<a ');

    // Clean up for the other spec files sharing this server.
    expect((await page.request.delete(`/api/blog-posts/${updated.id}`, { headers: { Origin: baseURL!, ...CLOSE } })).ok()).toBe(true);
  });

  test('upload a featured image: preview, save, and the file is served', async ({ page, baseURL }) => {
    const title = `Image Post ${unique()}`;
    await startNewPost(page, title, 'A post with a cover image.');

    await page.getByLabel('Upload Image').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png() });
    await expect(page.getByText('Image uploaded')).toBeVisible();
    const preview = page.getByRole('img', { name: 'Featured image preview' });
    await expect(preview).toBeVisible();
    const src = (await preview.getAttribute('src'))!;
    expect(src).toMatch(/^\/uploads\/\d{4}\/\d{2}\/[a-f0-9]{24}\.png$/);
    await expect(page.getByLabel('Image URL')).toHaveValue(src);
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);

    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Post created')).toBeVisible();
    await expect(card(page, title).locator(`img[src="${src}"]`)).toBeVisible();

    const post = (await adminPosts(page.request)).find((p) => p.title === title)!;
    expect(post.featuredImage).toBe(src);
    const image = await page.request.get(src, { headers: CLOSE });
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
    expect(Buffer.from(await image.body()).equals(png())).toBe(true);

    // A URL typed by hand replaces it; clearing removes it.
    await page.getByRole('link', { name: `Edit post ${title}` }).click();
    await page.getByRole('button', { name: 'Remove featured image' }).click();
    await expect(page.getByLabel('Image URL')).toHaveValue('');
    await page.getByLabel('Image URL').fill('not a url');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Invalid image URL')).toBeVisible();

    expect((await page.request.delete(`/api/blog-posts/${post.id}`, { headers: { Origin: baseURL!, ...CLOSE } })).ok()).toBe(true);
  });

  test('delete a post through the confirmation dialog', async ({ page, baseURL }) => {
    const title = `Doomed Post ${unique()}`;
    const created = await page.request.post('/api/blog-posts', {
      data: { title, slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'), content: '<p>Short-lived.</p>', category: 'General', isPublished: false },
      headers: { Origin: baseURL!, ...CLOSE },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as ApiPost;

    await page.goto('/admin/blog');
    const total = (await adminPosts(page.request)).length;
    await expect(stat(page, 'Total Posts')).toContainText(String(total));
    await page.getByRole('button', { name: `Delete post ${title}` }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Are you sure?' });
    await expect(dialog.getByRole('heading', { name: 'Are you sure?' })).toBeVisible();
    await expect(dialog).toContainText(`This action cannot be undone. This will permanently delete the blog post "${title}" and remove it from the website.`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card(page, title)).toBeVisible();

    await page.getByRole('button', { name: `Delete post ${title}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Post' }).click();
    await expect(page.getByText('Post deleted')).toBeVisible();
    await expect(page.getByText('The blog post has been successfully deleted.')).toBeVisible();
    await expect(card(page, title)).toHaveCount(0);
    await expect(stat(page, 'Total Posts')).toContainText(String(total - 1));
    expect((await page.request.get(`/api/blog-posts/${id}`, { headers: CLOSE })).status()).toBe(404);
  });

  test('paste from Word and Google Docs keeps the structure and drops the junk', async ({ page }) => {
    await page.goto('/admin/blog/new');
    const editor = page.getByRole('textbox', { name: 'Content' });
    await editor.click();
    const paste = (html: string) =>
      editor.evaluate((el, data) => {
        const transfer = new DataTransfer();
        transfer.setData('text/html', data);
        transfer.setData('text/plain', 'fallback');
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
      }, html);

    await paste(WORD_HTML);
    await expect(editor.locator('h2')).toHaveText('Quarterly plan');
    await expect(editor.locator('strong')).toHaveText('three');
    await expect(editor.locator('em')).toHaveText('review');
    await expect(editor.locator('ul > li')).toHaveText(['First bet', 'Second bet']);
    await expect(editor.locator('ol > li')).toHaveText(['Step one']);
    // Word's blank-line paragraphs are gone (the editor keeps one empty paragraph at the end).
    await expect(editor.locator('p:not(:last-child)', { hasText: /^\s*$/ })).toHaveCount(0);
    const junk = ['mso-', 'Mso', 'o:p', 'docs-internal', '·', 'font-family', 'supportLists', 'StartFragment', 'Arial', 'Calibri'];
    for (const text of junk) expect(await editor.innerHTML()).not.toContain(text);

    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await paste(GOOGLE_DOCS_HTML);
    await expect(editor.locator('h3')).toHaveText('From the doc');
    await expect(editor.locator('p[style*="center"] strong')).toHaveText('Centered bold');
    await expect(editor.locator('p[style*="center"] em')).toHaveText('then italic');
    await expect(editor.locator('ul > li')).toHaveText(['Doc item']);
    // Google's wrapper must not make everything bold.
    await expect(editor.locator('strong')).toHaveText(['Centered bold']);
    for (const text of junk) expect(await editor.innerHTML()).not.toContain(text);
  });

  test('opening and saving an imported post keeps its code, rules, tables and small headings', async ({ page, baseURL }) => {
    const title = `Imported Formatting ${unique()}`;
    const content = [
      '<p>Intro with <code>inline code</code> and <s>struck</s> text.</p>',
      '<pre><code>const answer = 42;\nconsole.log(answer);</code></pre>',
      '<hr>',
      '<h4>A small heading</h4>',
      '<table><tbody><tr><th>Plan</th><th>Price</th></tr><tr><td>Starter</td><td>$49</td></tr></tbody></table>',
      '<p>Outro.</p>',
    ].join('');
    const created = await page.request.post('/api/blog-posts', {
      data: { title, slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'), content, category: 'General', isPublished: false },
      headers: { Origin: baseURL!, ...CLOSE },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as ApiPost;

    await page.goto(`/admin/blog/edit/${id}`);
    const editor = page.getByRole('textbox', { name: 'Content' });
    await expect(editor.locator('pre code')).toContainText('const answer = 42;');
    await expect(editor.locator('table td', { hasText: 'Starter' })).toBeVisible();
    // The toolbar still offers exactly the spec's tools.
    await expect(page.getByRole('button', { name: 'Code block' })).toHaveCount(0);
    await editor.getByText('Outro.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Edited.');
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(page.getByText('Post updated')).toBeVisible();

    const saved = (await adminPosts(page.request)).find((p) => p.id === id)!;
    expect(saved.content).toContain('<code>inline code</code>');
    expect(saved.content).toContain('<s>struck</s>');
    expect(saved.content).toMatch(/<pre><code>const answer = 42;\nconsole\.log\(answer\);<\/code><\/pre>/);
    expect(saved.content).toContain('<hr');
    expect(saved.content).toContain('<h4>A small heading</h4>');
    expect(saved.content).toMatch(/<table>.*<th[^>]*>(<p>)?Plan(<\/p>)?<\/th>.*<td[^>]*>(<p>)?\$49(<\/p>)?<\/td>.*<\/table>/);
    expect(saved.content).toContain('Outro. Edited.');

    expect((await page.request.delete(`/api/blog-posts/${id}`, { headers: { Origin: baseURL!, ...CLOSE } })).ok()).toBe(true);
  });

  test('WordPress import through the file picker', async ({ page, baseURL }) => {
    await page.goto('/admin/blog');
    const before = (await adminPosts(page.request)).length;
    await expect(stat(page, 'Total Posts')).toContainText(String(before));
    await page.getByLabel('Import WordPress').setInputFiles({ name: 'jordan.WordPress.2024-03-02.xml', mimeType: 'text/xml', buffer: WXR });
    try {
      // The import runs in a worker thread that loads the server's code first: allow it time on a busy machine.
      await expect(page.getByText('Import Successful')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('Imported 5 posts successfully')).toBeVisible();
      await expect(page.getByText("Kept as drafts, as they were not public on WordPress: 'Quarterly Review Template' (private)")).toBeVisible();
      await expect(stat(page, 'Total Posts')).toContainText(String(before + 5));
      // The end report: the counts, and the whole report as a text file.
      const report = page.getByRole('region', { name: 'WordPress import' });
      await expect(report).toContainText('5 imported, 0 updated, 4 skipped, 0 failed');
      const download = page.waitForEvent('download');
      await report.getByRole('link', { name: 'Download the report' }).click();
      const text = readFileSync(await (await download).path(), 'utf8');
      expect(text).toContain("post 'Old Announcement' (WordPress id 170): in the trash");
      expect(text).toContain('/blog/why-i-dont-write-roadmaps-anymore');
      await expect(card(page, 'Why I Don’t Write Roadmaps Anymore & What I Do Instead').getByText('Published', { exact: true })).toBeVisible();
      await expect(card(page, 'Notes on Hiring: Draft & Unfinished').getByText('Draft', { exact: true })).toBeVisible();
      await expect(page.getByLabel('Import WordPress')).toHaveValue('');

      // The same file again imports nothing; a file that is not an export fails with the spec's words.
      await page.getByLabel('Import WordPress').setInputFiles({ name: 'again.xml', mimeType: 'text/xml', buffer: WXR });
      await expect(page.getByText('Imported 0 posts successfully')).toBeVisible({ timeout: 30_000 });
      await page.getByLabel('Import WordPress').setInputFiles({ name: 'broken.xml', mimeType: 'text/xml', buffer: Buffer.from('<rss><channel></rss>') });
      await expect(page.getByText('Import Failed')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText(/There was an error importing your WordPress posts/)).toBeVisible();
      await expect(stat(page, 'Total Posts')).toContainText(String(before + 5));
    } finally {
      // Whatever happened, the imported posts (and their comments) go once the import is over,
      // so later tests see the seeded blog.
      await expect.poll(async () => (await getJson<{ status: string } | null>(page.request, '/api/wordpress/import'))?.status, { timeout: 60_000 }).not.toBe('running');
      for (const post of (await adminPosts(page.request)).filter((p) => WXR_SLUGS.includes(p.slug))) {
        expect((await page.request.delete(`/api/blog-posts/${post.id}`, { headers: { Origin: baseURL!, ...CLOSE } })).ok()).toBe(true);
      }
    }
  });

  test('Ghost and Substack imports through their file pickers, with a toast either way', async ({ page, baseURL }) => {
    // The import runs in a worker thread that loads the server's code first: allow it time on a busy machine.
    test.slow();
    const ghost = JSON.stringify({
      db: [
        {
          meta: { exported_on: 1616560573131, version: '5.0.0' },
          data: {
            posts: [
              {
                id: 'e2e1',
                title: 'From Ghost',
                slug: 'e2e-from-ghost',
                html: '<p>Hello from Ghost</p>',
                type: 'post',
                status: 'published',
                visibility: 'public',
                published_at: '2024-01-02T10:00:00.000Z',
              },
            ],
            tags: [],
            posts_tags: [],
          },
        },
      ],
    });
    await page.goto('/admin/blog');
    try {
      await page.getByLabel('Import from Ghost').setInputFiles({ name: 'site.ghost.json', mimeType: 'application/json', buffer: Buffer.from(ghost) });
      await expect(page.getByText('Import Successful')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('Imported 1 posts and episodes successfully')).toBeVisible();
      await expect(card(page, 'From Ghost').getByText('Published', { exact: true })).toBeVisible();
      await page.getByLabel('Import from Substack').setInputFiles({ name: 'posts.csv', mimeType: 'text/csv', buffer: Buffer.from('post_id\n') });
      await expect(page.getByText(/There was an error importing your Substack posts\. Choose the \.zip Substack exports/)).toBeVisible();
    } finally {
      for (const post of (await adminPosts(page.request)).filter((p) => p.slug === 'e2e-from-ghost')) {
        expect((await page.request.delete(`/api/blog-posts/${post.id}`, { headers: { Origin: baseURL!, ...CLOSE } })).ok()).toBe(true);
      }
    }
  });

  test('no serious accessibility violations on the list and the editor', async ({ page }) => {
    await page.goto('/admin/blog');
    await expect(cards(page).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.goto('/admin/blog/new');
    await expect(page.getByRole('textbox', { name: 'Content' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const id = (await adminPosts(page.request)).find((p) => p.title === SEEDED_PUBLISHED)!.id;
    await page.goto(`/admin/blog/edit/${id}`);
    await expect(page.getByLabel('Title')).toHaveValue(SEEDED_PUBLISHED);
    await expectNoSeriousA11yViolations(page);
  });
});

test('the empty state on a server without posts', async ({ page }) => {
  await loginAs(page, EMPTY_URL);
  await page.goto(`${EMPTY_URL}/admin/blog`);
  await expect(stat(page, 'Total Posts')).toContainText('0');
  await expect(page.getByText('No posts found')).toBeVisible();
  await expect(page.getByText('Get started by creating your first blog post.')).toBeVisible();
  await expect(page.getByText('No posts match your current filters.')).toHaveCount(0);
  await page.getByRole('link', { name: 'Create First Post' }).click();
  await expect(page).toHaveURL(`${EMPTY_URL}/admin/blog/new`);
  await expect(page.getByRole('heading', { name: 'Create New Post' })).toBeVisible();

  await page.goto(`${EMPTY_URL}/admin/blog`);
  await page.getByPlaceholder('Search blog posts...').fill('anything');
  await expect(page.getByText('No posts match your current filters.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create First Post' })).toHaveCount(0);
});

test.describe('guard', () => {
  test('a logged-in non-admin sees nothing, gets the Unauthorized toast and goes to /api/login', async ({ page, baseURL, playwright }) => {
    const username = `reader${unique()}`;
    const password = 'reader-password';
    expect((await page.request.post('/api/register', { data: { username, password }, headers: { Origin: baseURL!, ...CLOSE } })).status()).toBe(201);
    const admin = await playwright.request.newContext({ baseURL });
    expect((await admin.post('/api/login', { data: E2E_ADMIN, headers: { Origin: baseURL!, ...CLOSE } })).ok()).toBe(true);
    const users = (await (await admin.get('/api/admin/users', { headers: CLOSE })).json()) as { id: string; username: string }[];
    const id = users.find((u) => u.username === username)!.id;
    expect((await admin.patch(`/api/admin/users/${id}`, { data: { isApproved: true }, headers: { Origin: baseURL!, ...CLOSE } })).ok()).toBe(true);
    await admin.dispose();
    expect((await page.request.post('/api/login', { data: { username, password }, headers: { Origin: baseURL!, ...CLOSE } })).ok()).toBe(true);

    const toLogin = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/login' && r.method() === 'GET');
    await page.goto('/admin/blog');
    await expect(page.getByText('Unauthorized', { exact: true })).toBeVisible();
    await expect(page.getByText('You need admin access to view this page.')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/blog$/);
    await expect(page.getByRole('heading', { name: 'Blog Management' })).toHaveCount(0);
    await expect(page.getByRole('main')).toHaveCount(0);
    await toLogin;
    // /api/login sends to /auth, which sends a logged-in non-admin home.
    await page.waitForURL((url) => url.pathname === '/auth' || url.pathname === '/');
  });

  test('an anonymous visitor is sent to the login screen after the toast', async ({ page }) => {
    for (const path of ['/admin/blog', '/admin/blog/new']) {
      const started = Date.now();
      await page.goto(path);
      await expect(page.getByText('You need admin access to view this page.')).toBeVisible();
      await expect(page.getByRole('heading', { name: /Blog Management|Create New Post/ })).toHaveCount(0);
      await page.waitForURL((url) => url.pathname === '/auth');
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    }
  });
});

const WORD_HTML = `<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word" xmlns="http://www.w3.org/TR/REC-html40">
<head><meta http-equiv=Content-Type content="text/html; charset=utf-8"><meta name=ProgId content=Word.Document><meta name=Generator content="Microsoft Word 15">
<!--[if gte mso 9]><xml><o:OfficeDocumentSettings><o:AllowPNG/></o:OfficeDocumentSettings></xml><![endif]-->
<style><!-- p.MsoNormal, li.MsoNormal {mso-style-unhide:no;margin:0cm;font-size:12.0pt;font-family:"Calibri",sans-serif;} @list l0:level1 {mso-level-number-format:bullet;} --></style>
</head><body lang=EN-US style='tab-interval:36.0pt;word-wrap:break-word'>
<!--StartFragment-->
<h2><span style='mso-fareast-font-family:"Times New Roman"'>Quarterly plan<o:p></o:p></span></h2>
<p class=MsoNormal>We ship <b><span style='mso-bidi-font-weight:normal'>three</span></b> bets and <i>review</i> them weekly.<o:p></o:p></p>
<p class=MsoNormal><o:p>&nbsp;</o:p></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-fareast-font-family:Symbol;mso-bidi-font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>First bet<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-fareast-font-family:Symbol;mso-bidi-font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>Second bet<o:p></o:p></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span style='mso-bidi-font-family:Calibri'><span style='mso-list:Ignore'>1.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>Step one<o:p></o:p></p>
<!--EndFragment-->
</body></html>`;

const GOOGLE_DOCS_HTML = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1a2b3c4d-7fff-2e3f-4a5b-6c7d8e9f0a1b"><h3 dir="ltr" style="line-height:1.38;margin-top:16pt;margin-bottom:4pt;"><span style="font-size:14pt;font-family:Arial,sans-serif;color:#434343;background-color:transparent;font-weight:400;font-style:normal;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">From the doc</span></h3><p dir="ltr" style="line-height:1.38;text-align:center;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:700;font-style:normal;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">Centered bold</span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:italic;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">then italic</span></p><ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;"><li dir="ltr" style="list-style-type:disc;font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;" aria-level="1"><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;" role="presentation"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">Doc item</span></p></li></ul></b><br class="Apple-interchange-newline">`;
