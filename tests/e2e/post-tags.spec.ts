// Blog post tags in the browser: the editor's Tags field, and a tag link on a post page that
// leads (without JavaScript too) to /blog listing the posts with that tag.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';
import { CLOSE, getJson, loginAs, startNewPost, unique, withConsentDecided } from './helpers';

interface ApiPost {
  id: number;
  title: string;
  slug: string;
  tags?: { slug: string; name: string }[];
}

const tagList = (page: Page) => page.getByRole('list', { name: 'Tags' });
const cardTitles = (page: Page) => page.getByRole('main').getByRole('article').getByRole('heading', { level: 3 });

async function savePost(request: APIRequestContext, origin: string, data: Record<string, unknown>): Promise<ApiPost> {
  const res = await request.post('/api/blog-posts', { data: { content: '<p>Tagged words.</p>', category: 'General', isPublished: true, ...data }, headers: { Origin: origin, ...CLOSE } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as ApiPost;
}

async function deletePosts(request: APIRequestContext, origin: string, posts: ApiPost[]) {
  for (const post of posts) expect((await request.delete(`/api/blog-posts/${post.id}`, { headers: { Origin: origin, ...CLOSE } })).ok()).toBe(true);
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a tag link on a post page lands on /blog?tag=… listing the posts with that tag', async ({ page: visitor, baseURL, playwright }) => {
    // The posts are written by an admin; the page is a visitor's, without a session.
    const admin = await playwright.request.newContext({ baseURL: baseURL! });
    const login = await admin.post('/api/login', { data: E2E_ADMIN, headers: { Origin: baseURL!, ...CLOSE } });
    expect(login.status()).toBe(200);
    const tagName = unique('Calm Ops ');
    const title = unique('Tagged e2e post ');
    const tagged = await savePost(admin, baseURL!, { title, slug: unique('tagged-e2e-'), tags: [tagName, 'Zebra'] });
    const untagged = await savePost(admin, baseURL!, { title: unique('Untagged e2e post '), slug: unique('untagged-e2e-') });
    const tag = tagged.tags?.find((t) => t.name === tagName);
    expect(tag).toBeDefined();
    try {
      await visitor.goto(`/blog/${tagged.slug}`);
      await expect(tagList(visitor).getByRole('link')).toHaveText([`#${tagName}`, '#Zebra']);
      await tagList(visitor).getByRole('link', { name: tagName }).click();
      await expect(visitor).toHaveURL(new RegExp(`/blog\\?tag=${tag!.slug}$`));
      await expect(visitor.getByRole('heading', { name: `Tagged: ${tagName}` })).toBeVisible();
      await expect(cardTitles(visitor)).toHaveText([title]);
      await visitor.getByRole('link', { name: 'Show all posts' }).click();
      await expect(visitor).toHaveURL(/\/blog$/);
      await expect(visitor.getByRole('heading', { name: /^Tagged:/ })).toHaveCount(0);

      await visitor.goto(`/blog/${untagged.slug}`);
      await expect(visitor.getByRole('heading', { level: 1, name: untagged.title })).toBeVisible();
      await expect(tagList(visitor)).toHaveCount(0);
    } finally {
      await deletePosts(admin, baseURL!, [tagged, untagged]);
      await admin.dispose();
    }
  });
});

test('the editor saves comma-separated tags with the post and shows them when it is edited again', async ({ page, baseURL }) => {
  await withConsentDecided(page);
  await loginAs(page, baseURL!);
  const title = unique('Editor tags post ');
  await startNewPost(page, title, 'A post with tags.');
  await page.getByLabel('Tags').fill(' remote work, Hiring,, remote   work ');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(/\/admin\/blog$/);

  const post = (await getJson<ApiPost[]>(page.request, '/api/blog-posts')).find((p) => p.title === title);
  expect(post).toBeDefined();
  try {
    expect((await getJson<ApiPost>(page.request, `/api/blog-posts/${post!.id}`)).tags).toEqual([
      { slug: 'hiring', name: 'Hiring' },
      { slug: 'remote-work', name: 'remote work' },
    ]);
    await page.goto(`/admin/blog/edit/${post!.id}`);
    await expect(page.getByLabel('Tags')).toHaveValue('Hiring, remote work');

    await page.getByLabel('Tags').fill('x'.repeat(51));
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Each tag must be at most 50 characters')).toBeVisible();
    await expect(page.getByLabel('Tags')).toBeFocused();
  } finally {
    await deletePosts(page.request, baseURL!, [post!]);
  }
});
