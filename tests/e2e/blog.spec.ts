// /blog and /blog/{slug}: the seeded posts, search and category filters, empty states, the
// post page (date, read time, share popup, comments through approval, related posts), 404s,
// accessibility and the JavaScript budget.
import { expect, test, type Page } from '@playwright/test';
import { EMPTY_URL } from '../../playwright.config';
import { loginAs, withConsentDecided } from './helpers';
import { expectNoSeriousA11yViolations, hydrated, JS_BUDGET_BYTES, pageJsGzipBytes } from '#tests/support/page-checks.ts';

// The demo seed: seven published posts over five categories, and one draft.
const SEEDED = [
  { title: "The Burnout I Didn't See Coming", category: 'Personal' },
  { title: 'Hiring Your First Five Engineers Without a Recruiter', category: 'Leadership' },
  { title: 'Technical Debt Is a Loan. Know Your Interest Rate.', category: 'Technology' },
  { title: 'Stop Pricing Like a Freelancer: Value-Based Pricing for Your First Product', category: 'Business' },
  { title: 'What 24/7 Dispatch Taught Me About Calm Leadership', category: 'Leadership' },
  { title: 'Shipping an MVP in Six Weeks: A Scope-Cutting Playbook', category: 'Technology' },
  { title: 'Two Decades and 100+ Apps: The Lessons That Actually Held Up', category: 'General' },
];
const DRAFT = { title: 'Runbooks Before Headcount: Scaling Operations Without Scaling Chaos', slug: 'runbooks-before-headcount-scaling-operations-without-scaling-chaos' };
const MVP_SLUG = 'shipping-an-mvp-in-six-weeks-a-scope-cutting-playbook';

interface ApiPost {
  id: number;
  slug: string;
  title: string;
  category: string;
  readTime: number | null;
  publishedAt: string | null;
  createdAt: string;
}

const cards = (page: Page) => page.getByRole('main').getByRole('article');
const cardTitles = (page: Page) => cards(page).getByRole('heading', { level: 3 });
const search = (page: Page) => page.getByLabel('Search articles');
const filter = (page: Page, name: string) => page.getByRole('group', { name: 'Filter by category' }).getByRole('button', { name, exact: true });
const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications (F8)' });

async function publishedPosts(page: Page): Promise<ApiPost[]> {
  return (await (await page.request.get('/api/blog-posts?published=true')).json()) as ApiPost[];
}

async function openBlog(page: Page) {
  await page.goto('/blog');
  await hydrated(search(page));
}

test.beforeEach(async ({ page }) => {
  await withConsentDecided(page);
});

test.describe('/blog', () => {
  test('is titled Leadership Insights, with a labelled search box and a newsletter call to action', async ({ page }) => {
    await page.goto('/blog');
    await expect(page.getByRole('heading', { level: 1, name: 'Leadership Insights' })).toBeVisible();
    await expect(search(page)).toHaveAttribute('placeholder', 'Search articles...');
    await expect(page.getByRole('link', { name: /Subscribe to the Newsletter/ })).toHaveAttribute('href', '/newsletter');
  });

  test('shows every published post as a card, newest first, and never the draft', async ({ page }) => {
    const posts = await publishedPosts(page);
    await openBlog(page);
    await expect(cardTitles(page)).toHaveText(posts.map((p) => p.title));
    for (const seeded of SEEDED) {
      const card = cards(page).filter({ has: page.getByRole('heading', { name: seeded.title, exact: true }) });
      await expect(card).toHaveCount(1);
      await expect(card).toContainText(seeded.category, { ignoreCase: true });
      await expect(card).toContainText(/\d+ min read/);
    }
    await expect(page.getByText(DRAFT.title)).toHaveCount(0);
  });

  test('the server-rendered HTML already holds every card (readable without JavaScript)', async ({ request }) => {
    const posts = (await (await request.get('/api/blog-posts?published=true')).json()) as ApiPost[];
    const html = await (await request.get('/blog')).text();
    for (const p of posts) expect(html).toContain(`href="/blog/${p.slug}"`);
    expect(html).toContain(SEEDED[2].title);
    expect(html).not.toContain(DRAFT.slug);
  });

  test('search narrows by title or excerpt, case-insensitively', async ({ page }) => {
    const total = (await publishedPosts(page)).length;
    await openBlog(page);
    await search(page).fill('PRICING LIKE');
    await expect(cardTitles(page)).toHaveText([SEEDED[3].title]);
    await expect(page.getByText(`1 of ${total} articles`)).toBeVisible();

    // 'ruthless' is only in the excerpt of the MVP post.
    await search(page).fill('ruthless list');
    await expect(cardTitles(page)).toHaveText([SEEDED[5].title]);
    await expect(page).toHaveURL(/[?&]q=ruthless\+list/);
  });

  test('a search without a match shows the empty state, and Clear Search restores every post', async ({ page }) => {
    const total = (await publishedPosts(page)).length;
    await openBlog(page);
    await search(page).fill('quantum knitting');
    await expect(cards(page)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'No articles found' })).toBeVisible();
    await expect(page.getByText('No articles match your filters')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Show All Categories' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Clear Search' }).click();
    await expect(search(page)).toHaveValue('');
    await expect(search(page)).toBeFocused();
    await expect(cards(page)).toHaveCount(total);
  });

  test('category buttons: All plus each category, exact match, combined with search, and All again', async ({ page }) => {
    const total = (await publishedPosts(page)).length;
    await openBlog(page);
    const group = page.getByRole('group', { name: 'Filter by category' });
    await expect(group.getByRole('button')).toHaveText(['All', 'Business', 'General', 'Leadership', 'Personal', 'Technology']);
    await expect(filter(page, 'All')).toHaveAttribute('aria-pressed', 'true');

    await filter(page, 'Leadership').click();
    await expect(filter(page, 'Leadership')).toHaveAttribute('aria-pressed', 'true');
    await expect(filter(page, 'All')).toHaveAttribute('aria-pressed', 'false');
    await expect(cardTitles(page)).toHaveText([SEEDED[1].title, SEEDED[4].title]);

    await search(page).fill('hiring');
    await expect(cardTitles(page)).toHaveText([SEEDED[1].title]);

    // A search that matches only in another category: the empty state offers both ways out.
    await search(page).fill('pricing');
    await expect(page.getByText('No articles match your filters')).toBeVisible();
    await page.getByRole('button', { name: 'Show All Categories' }).click();
    await expect(filter(page, 'All')).toHaveAttribute('aria-pressed', 'true');
    await expect(cardTitles(page)).toHaveText([SEEDED[3].title]);

    await search(page).fill('');
    await filter(page, 'General').click();
    await expect(cardTitles(page)).toHaveText([SEEDED[6].title]);
    await filter(page, 'All').click();
    await expect(cards(page)).toHaveCount(total);
  });

  test('without JavaScript the search and filters still work through the server', async ({ browser }, testInfo) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL: testInfo.project.use.baseURL });
    const page = await context.newPage();
    try {
      await page.goto('/blog');
      await expect(cards(page)).toHaveCount((await publishedPosts(page)).length);
      await filter(page, 'Technology').click();
      await expect(page).toHaveURL(/category=Technology/);
      await expect(cardTitles(page)).toHaveText([SEEDED[2].title, SEEDED[5].title]);
      await search(page).fill('debt');
      await search(page).press('Enter');
      await expect(page).toHaveURL(/q=debt/);
      await expect(cardTitles(page)).toHaveText([SEEDED[2].title]);
      await expect(filter(page, 'Technology')).toHaveAttribute('aria-pressed', 'true');
    } finally {
      await context.close();
    }
  });

  test('an empty database says no articles have been published yet', async ({ page }) => {
    await page.goto(`${EMPTY_URL}/blog`);
    await expect(page.getByRole('heading', { level: 1, name: 'Leadership Insights' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No articles found' })).toBeVisible();
    await expect(page.getByText('No articles have been published yet.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Clear Search' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /Subscribe to the Newsletter/ })).toBeVisible();
  });

  test('a card links to its post through the title and Read Article', async ({ page }) => {
    const [first] = await publishedPosts(page);
    await openBlog(page);
    const card = cards(page).first();
    await expect(card.getByRole('link', { name: `Read Article: ${first.title}` })).toHaveAttribute('href', `/blog/${first.slug}`);
    await card.getByRole('link', { name: first.title, exact: true }).click();
    await expect(page).toHaveURL(`/blog/${first.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: first.title })).toBeVisible();
  });

  test('has no serious accessibility violations', async ({ page }) => {
    await openBlog(page);
    await expectNoSeriousA11yViolations(page);
    await search(page).fill('quantum knitting');
    await expect(page.getByText('No articles match your filters')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('stays within the 70 KB JavaScript budget', async ({ page }) => {
    const { total, files } = await pageJsGzipBytes(page, '/blog');
    test.info().annotations.push({ type: 'js-gzip-bytes', description: `${total} ${JSON.stringify(files)}` });
    expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES);
  });
});

test.describe('/blog/{slug}', () => {
  test('shows the title, category, long date, read time and the content', async ({ page }) => {
    const post = (await (await page.request.get(`/api/blog-posts/slug/${MVP_SLUG}`)).json()) as ApiPost;
    await page.goto(`/blog/${MVP_SLUG}`);
    await expect(page).toHaveTitle(new RegExp(`^${post.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible();
    const article = page.getByRole('article', { name: post.title });
    await expect(article.getByText('Technology', { exact: true })).toBeVisible();
    const date = article.locator('header time');
    await expect(date).toHaveText(new Date(post.publishedAt ?? post.createdAt).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }));
    await expect(date).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    await expect(article.getByText(`${post.readTime ?? 5} min read`)).toBeVisible();
    await expect(article.locator('.prose-post')).toContainText('Almost every founder I coach has the same problem');
    await expect(article.locator('.prose-post').getByRole('heading', { level: 2, name: 'The not-building list' })).toBeVisible();
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
  });

  test('describes itself as a BlogPosting in JSON-LD, with "<" escaped', async ({ page }) => {
    await page.goto(`/blog/${MVP_SLUG}`);
    const raw = (await page.locator('head script[type="application/ld+json"]').textContent()) ?? '';
    expect(raw).not.toContain('<');
    const data = JSON.parse(raw);
    expect(data['@type']).toBe('BlogPosting');
    expect(data.headline).toBe(SEEDED[5].title);
    expect(data.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  test('a post with a featured image shows it; without an excerpt the description is its first 100 characters', async ({ page }, testInfo) => {
    const origin = testInfo.project.use.baseURL!;
    await loginAs(page, origin);
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const res = await page.request.post('/api/blog-posts', {
      headers: { Origin: origin },
      data: {
        title: 'Covers </script><b>and</b> escapes',
        slug: `covers-and-escapes-${Date.now()}`,
        excerpt: '',
        content: `<p>${words}</p>`,
        featuredImage: '/images/covers/cover-2.svg',
        category: 'Business',
        isPublished: true,
      },
    });
    expect(res.status()).toBe(201);
    const post = (await res.json()) as ApiPost;
    try {
      await page.goto(`/blog/${post.slug}`);
      const image = page.getByRole('article').locator('figure img');
      await expect(image).toHaveAttribute('src', '/images/covers/cover-2.svg');
      await expect(image).toHaveAttribute('width', '1200');
      await expect(image).toHaveAttribute('height', '675');
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', 'word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 word14 word1...');
      const data = JSON.parse((await page.locator('head script[type="application/ld+json"]').textContent()) ?? '');
      expect(data.headline).toBe(post.title);
      expect(data.image).toBe(`${origin}/images/covers/cover-2.svg`);
    } finally {
      await page.request.delete(`/api/blog-posts/${post.id}`, { headers: { Origin: origin } });
    }
    // The seeded posts have no featured image: nothing stands in for one on the post page.
    await page.goto(`/blog/${MVP_SLUG}`);
    await expect(page.getByRole('article').locator('figure img')).toHaveCount(0);
  });

  test('the share buttons open a 600x400 popup for LinkedIn, X and Facebook', async ({ page, context }) => {
    await context.route(/linkedin\.com|twitter\.com|facebook\.com/, (route) => route.fulfill({ contentType: 'text/html', body: '<title>share</title>' }));
    // Records what the page asks window.open for, then lets the real call happen.
    await page.addInitScript(() => {
      const calls: unknown[][] = [];
      (window as unknown as { __openCalls: unknown[][] }).__openCalls = calls;
      const open = window.open.bind(window);
      window.open = (...args: Parameters<typeof window.open>) => {
        calls.push(args);
        return open(...args);
      };
    });
    await page.goto(`/blog/${MVP_SLUG}`);
    const pageUrl = encodeURIComponent(page.url());

    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: 'Share on LinkedIn' }).click()]);
    await popup.waitForLoadState();
    expect(await popup.evaluate(() => [window.outerWidth, window.outerHeight])).toEqual([600, 400]);
    expect(popup.url()).toBe(`https://www.linkedin.com/sharing/share-offsite/?url=${pageUrl}`);
    expect(page.url()).toContain(`/blog/${MVP_SLUG}`);
    await popup.close();

    await page.getByRole('link', { name: 'Share on X (Twitter)' }).click();
    await page.getByRole('link', { name: 'Share on Facebook' }).click();
    const calls = await page.evaluate(() => (window as unknown as { __openCalls: string[][] }).__openCalls);
    expect(calls.map((c) => c[0])).toEqual([
      `https://www.linkedin.com/sharing/share-offsite/?url=${pageUrl}`,
      `https://twitter.com/intent/tweet?url=${pageUrl}&text=${encodeURIComponent(SEEDED[5].title)}`,
      `https://www.facebook.com/sharer/sharer.php?u=${pageUrl}`,
    ]);
    for (const [, , features] of calls) expect(features).toMatch(/(^|,)width=600,height=400(,|$)/);
  });

  test('the share links work as plain links without JavaScript', async ({ page }) => {
    await page.goto(`/blog/${MVP_SLUG}`);
    for (const name of ['Share on LinkedIn', 'Share on X (Twitter)', 'Share on Facebook']) {
      const link = page.getByRole('link', { name });
      await expect(link).toHaveAttribute('href', /^https:\/\//);
      await expect(link).toHaveAttribute('target', '_blank');
    }
  });

  test('shows approved comments without e-mails; a new comment waits for approval, then appears', async ({ page }, testInfo) => {
    const origin = testInfo.project.use.baseURL!;
    await page.goto(`/blog/${MVP_SLUG}`);
    const comments = page.getByRole('region', { name: /^Comments/ });
    await expect(comments.getByText('Nadia Farouk')).toBeVisible();
    await expect(comments).not.toContainText('@');

    const name = comments.getByLabel('Name');
    await hydrated(name);
    const text = `Testing the approval flow ${Date.now()}`;
    await name.fill('Casey Tester');
    await comments.getByLabel('Email').fill('casey@example.com');
    await comments.getByLabel('Comment', { exact: true }).fill(text);
    await comments.getByRole('button', { name: 'Post Comment' }).click();

    await expect(toasts(page).getByText('Comment submitted!')).toBeVisible();
    await expect(toasts(page).getByText('Your comment has been submitted for approval.')).toBeVisible();
    await expect(name).toHaveValue('');
    await expect(comments.getByLabel('Comment', { exact: true })).toHaveValue('');
    await expect(page.getByText(text)).toHaveCount(0);
    await page.reload();
    await expect(page.getByText('Nadia Farouk')).toBeVisible();
    await expect(page.getByText(text)).toHaveCount(0);

    await loginAs(page, origin);
    const all = (await (await page.request.get('/api/admin/comments')).json()) as { id: number; content: string; isApproved: boolean }[];
    const mine = all.find((c) => c.content === text);
    expect(mine?.isApproved).toBe(false);
    try {
      expect((await page.request.patch(`/api/admin/comments/${mine!.id}/approve`, { headers: { Origin: origin } })).ok()).toBe(true);
      await page.reload();
      const card = page.getByRole('listitem').filter({ hasText: text });
      await expect(card).toBeVisible();
      await expect(card).toContainText('Casey Tester');
      await expect(card).not.toContainText('casey@example.com');
    } finally {
      await page.request.delete(`/api/admin/comments/${mine!.id}`, { headers: { Origin: origin } });
    }
  });

  test('an invalid comment shows the error toast and the field messages from the API', async ({ page }) => {
    await page.goto(`/blog/${MVP_SLUG}`);
    const comments = page.getByRole('region', { name: /^Comments/ });
    await hydrated(comments.getByLabel('Name'));
    await comments.getByLabel('Email').fill('not-an-email');
    await comments.getByRole('button', { name: 'Post Comment' }).click();

    await expect(toasts(page).getByText('Error', { exact: true })).toBeVisible();
    await expect(toasts(page).getByText('Failed to submit comment. Please try again.')).toBeVisible();
    await expect(comments.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await expect(comments.getByText('Name is required')).toBeVisible();
    await expect(comments.getByText('Invalid email address')).toBeVisible();
    await expect(comments.getByText('Comment is required')).toBeVisible();
    await expect(comments.getByLabel('Name')).toBeFocused();
    // What was typed stays, so it can be corrected.
    await expect(comments.getByLabel('Email')).toHaveValue('not-an-email');
  });

  test('offers the newsletter and up to three related posts under More Leadership Insights', async ({ page }) => {
    await page.goto(`/blog/${MVP_SLUG}`);
    await expect(page.getByRole('region', { name: 'Enjoyed this article?' }).getByLabel('Email address')).toBeVisible();
    const related = page.getByRole('region', { name: 'More Leadership Insights' });
    await expect(related.getByRole('heading', { level: 2, name: 'More Leadership Insights' })).toBeVisible();
    const relatedCards = related.getByRole('article');
    const count = await relatedCards.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(3);
    await expect(related.getByText(SEEDED[5].title)).toHaveCount(0);
    for (let i = 0; i < count; i++) {
      await expect(relatedCards.nth(i).getByRole('link', { name: /^Read Article: / })).toHaveAttribute('href', /^\/blog\/[a-z0-9-]+$/);
      // No featured images in the seed: the fallback covers stand in, loaded lazily.
      await expect(relatedCards.nth(i).locator('img')).toHaveAttribute('src', /^\/images\/covers\/cover-[1-6]\.svg$/);
      await expect(relatedCards.nth(i).locator('img')).toHaveAttribute('loading', 'lazy');
    }
  });

  test('a draft and an unknown slug answer 404 with Article Not Found and Back to Blog', async ({ page }) => {
    for (const slug of [DRAFT.slug, 'no-such-article']) {
      const res = await page.goto(`/blog/${slug}`);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'Article Not Found' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Back to Blog' })).toHaveAttribute('href', '/blog');
      await expect(page.getByText(DRAFT.title)).toHaveCount(0);
      // Inside the site's own layout.
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
    }
  });

  test('an admin can preview a draft', async ({ page }, testInfo) => {
    await loginAs(page, testInfo.project.use.baseURL!);
    const res = await page.goto(`/blog/${DRAFT.slug}`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: DRAFT.title })).toBeVisible();
    await expect(page.getByText('Draft preview.')).toBeVisible();
  });

  test('has no serious accessibility violations, with field errors shown too', async ({ page }) => {
    await page.goto(`/blog/${MVP_SLUG}`);
    const comments = page.getByRole('region', { name: /^Comments/ });
    await hydrated(comments.getByLabel('Name'));
    await expectNoSeriousA11yViolations(page);
    await comments.getByRole('button', { name: 'Post Comment' }).click();
    await expect(comments.getByText('Name is required')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('stays within the 70 KB JavaScript budget', async ({ page }) => {
    const { total, files } = await pageJsGzipBytes(page, `/blog/${MVP_SLUG}`);
    test.info().annotations.push({ type: 'js-gzip-bytes', description: `${total} ${JSON.stringify(files)}` });
    expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES);
  });
});
