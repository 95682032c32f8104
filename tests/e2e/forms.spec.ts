// Every public form keeps what a visitor typed: with JavaScript off it posts natively and the
// page comes back with the same messages the island shows; typed before the island hydrated,
// the value is what gets stored; submitted right after hydration, it is stored once.
// Newsletter (home, /work-with-me's 'Get Started'), comments, register and log in.
import { expect, request as playwrightRequest, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { E2E_ADMIN, EMPTY_URL } from '../../playwright.config';
import { CLOSE, holdIslands, loginAs, unique, withConsentDecided } from './helpers';
import { hydrated } from '#tests/support/page-checks.ts';

const POST_SLUG = 'hiring-your-first-five-engineers-without-a-recruiter';

let admin: APIRequestContext;
test.beforeAll(async ({ baseURL }) => {
  admin = await playwrightRequest.newContext({ baseURL });
  const res = await admin.post('/api/login', { data: E2E_ADMIN, headers: { Origin: baseURL!, ...CLOSE } });
  expect(res.status()).toBe(200);
});
test.afterAll(async () => {
  await admin.dispose();
});

const subscribers = async () => (await (await admin.get('/api/newsletter/subscribers', { headers: CLOSE })).json()) as { email: string; name: string | null }[];
const allComments = async () => (await (await admin.get('/api/admin/comments', { headers: CLOSE })).json()) as { content: string; authorName: string }[];
const users = async () => (await (await admin.get('/api/admin/users', { headers: CLOSE })).json()) as { username: string; email: string | null }[];

async function noScriptPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  return context.newPage();
}

/** Counts the posts the page sends to a path ending with `path`. */
function countPosts(page: Page, path: string): () => number {
  let n = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname.endsWith(path)) n++;
  });
  return () => n;
}

test.describe('with JavaScript off', () => {
  test('the home newsletter form subscribes, and refuses a bad address with the field message', async ({ browser, baseURL }) => {
    const page = await noScriptPage(browser, baseURL);
    await page.goto('/');
    const form = page.locator('#newsletter form');
    await form.getByLabel('Email address').fill('nobody@localhost');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page).toHaveURL(/\/#newsletter$/);
    await expect(page.locator('#newsletter').getByText('Valid email is required').first()).toBeVisible();
    await expect(page.locator('#newsletter').getByLabel('Email address')).toHaveValue('nobody@localhost');
    expect((await subscribers()).some((s) => s.email === 'nobody@localhost')).toBe(false);

    const email = `${unique('nojs')}@example.com`;
    await page.locator('#newsletter').getByLabel('Email address').fill(email);
    await page.locator('#newsletter').getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.locator('#newsletter').getByRole('status')).toHaveText('Thanks for subscribing!');
    expect((await subscribers()).filter((s) => s.email === email)).toHaveLength(1);
    // The message was for that one page view.
    await page.reload();
    await expect(page.locator('#newsletter').getByRole('status')).toHaveText('');
    await page.context().close();
  });

  test('the privacy policy leads to /privacy/request, whose form refuses a bad address and answers any other the same', async ({ browser, baseURL }) => {
    const page = await noScriptPage(browser, baseURL);
    await page.goto('/privacy-policy');
    await page.getByRole('link', { name: 'ask here' }).click();
    await expect(page).toHaveURL(/\/privacy\/request$/);
    await page.getByLabel('Your e-mail address').fill('nobody@localhost');
    await page.getByRole('button', { name: 'Send me the link' }).click();
    await expect(page.getByText('Valid email is required').first()).toBeVisible();
    await expect(page.getByLabel('Your e-mail address')).toHaveValue('nobody@localhost');
    await page.getByLabel('Your e-mail address').fill(`${unique('privacy')}@example.com`);
    await page.getByLabel('Erase my data').check();
    await page.getByRole('button', { name: 'Send me the link' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'If we hold data about this address' })).toBeVisible();
    await page.context().close();
  });

  test("'Get Started' on /work-with-me stores the name and e-mail", async ({ browser, baseURL }) => {
    const page = await noScriptPage(browser, baseURL);
    await page.goto('/work-with-me');
    const card = page.locator('#get-started');
    const email = `${unique('start')}@example.com`;
    await card.getByLabel('Your name').fill('Nora No-Script');
    await card.getByLabel('Email address').fill(email);
    await card.getByRole('button', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/work-with-me#get-started$/);
    await expect(page.locator('#get-started').getByRole('status')).toHaveText('Thanks for subscribing!');
    expect((await subscribers()).find((s) => s.email === email)?.name).toBe('Nora No-Script');
    await page.context().close();
  });

  test('the comment form posts for approval, and shows each field error with what was typed', async ({ browser, baseURL }) => {
    const page = await noScriptPage(browser, baseURL);
    await page.goto(`/blog/${POST_SLUG}`);
    const content = `A long comment typed without JavaScript ${unique()}`;
    await page.getByLabel('Name').fill('Nadia');
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByRole('textbox', { name: 'Comment' }).fill(content);
    await page.getByRole('button', { name: 'Post Comment' }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('textbox', { name: 'Comment' })).toHaveValue(content);
    expect((await allComments()).some((c) => c.content === content)).toBe(false);

    await page.getByLabel('Email', { exact: true }).fill('nadia@example.com');
    await page.getByRole('button', { name: 'Post Comment' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your comment has been submitted for approval.' })).toBeVisible();
    expect((await allComments()).filter((c) => c.content === content)).toHaveLength(1);
    await page.context().close();
  });

  test('/auth leads to the Register form by a link; a bad e-mail is refused with its message and stores nothing', async ({ browser, baseURL }) => {
    const page = await noScriptPage(browser, baseURL);
    await page.goto('/auth');
    // Without JavaScript the tabs are plain links, not tabs that would do nothing.
    await expect(page.getByRole('tab')).toHaveCount(0);
    await page.getByRole('link', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/auth\?tab=register$/);
    const username = unique('nojsmail');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email (optional)').fill('not-an-email');
    await page.getByLabel('Password').fill('tangerine-orbit-42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Valid email is required').first()).toBeVisible();
    await expect(page.getByLabel('Username')).toHaveValue(username);
    expect((await users()).some((u) => u.username === username.toLowerCase())).toBe(false);

    await page.getByLabel('Email (optional)').fill(`${username}@example.com`);
    await page.getByLabel('Password').fill('tangerine-orbit-42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Account Created!')).toBeVisible();
    expect((await users()).filter((u) => u.username === username.toLowerCase())).toHaveLength(1);
    // And back to the Login form the same way.
    await page.getByRole('link', { name: 'Login' }).click();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await page.context().close();
  });

  test('register, then log in as an approved user', async ({ browser, baseURL }) => {
    const page = await noScriptPage(browser, baseURL);
    await page.goto('/auth?tab=register');
    const username = unique('nojs');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('123');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(page.getByLabel('Username')).toHaveValue(username);
    await page.getByLabel('Password').fill('tangerine-orbit-42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Account Created!')).toBeVisible();
    const created = (await users()).find((u) => u.username === username.toLowerCase());
    expect(created).toBeDefined();

    // Log in: a wrong password says so; the admin's right one lands on the dashboard.
    await page.goto('/auth');
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByLabel('Username')).toHaveValue(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.context().close();
  });
});

test.describe('typed before the island hydrated', () => {
  test.beforeEach(async ({ page }) => {
    await withConsentDecided(page);
  });

  test('the home newsletter stores what was typed', async ({ page }) => {
    const release = await holdIslands(page);
    await page.goto('/#newsletter', { waitUntil: 'commit' });
    const field = page.locator('#newsletter').getByLabel('Email address');
    const email = `${unique('early')}@example.com`;
    await field.fill(email);
    await expect(field.locator('xpath=ancestor::astro-island[1]')).toHaveAttribute('ssr', '');
    release();
    await hydrated(field);
    await page.locator('#newsletter').getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.locator('#newsletter').getByRole('status')).toHaveText('Thanks for subscribing!');
    expect((await subscribers()).filter((s) => s.email === email)).toHaveLength(1);
  });

  test("'Get Started' stores the name and e-mail typed before hydration", async ({ page }) => {
    const release = await holdIslands(page);
    await page.goto('/work-with-me#get-started', { waitUntil: 'commit' });
    const card = page.locator('#get-started');
    const email = `${unique('early')}@example.com`;
    await card.getByLabel('Your name').fill('Early Bird');
    await card.getByLabel('Email address').fill(email);
    release();
    await hydrated(card.getByLabel('Email address'));
    await card.getByRole('button', { name: 'Get Started' }).click();
    await expect(card.getByRole('status')).toHaveText('Thanks for subscribing!');
    expect((await subscribers()).find((s) => s.email === email)?.name).toBe('Early Bird');
  });

  test('a long comment typed before hydration is the one stored', async ({ page }) => {
    const release = await holdIslands(page);
    await page.goto(`/blog/${POST_SLUG}`, { waitUntil: 'commit' });
    const content = `${'Typed before the island was ready. '.repeat(20)}${unique()}`;
    await page.getByLabel('Name').fill('Early Reader');
    await page.getByLabel('Email', { exact: true }).fill('early@example.com');
    await page.getByRole('textbox', { name: 'Comment' }).fill(content);
    release();
    await hydrated(page.getByRole('textbox', { name: 'Comment' }));
    await page.getByRole('button', { name: 'Post Comment' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your comment has been submitted for approval.' })).toBeVisible();
    expect((await allComments()).filter((c) => c.content === content.trim())).toHaveLength(1);
  });

  test('Register opened from /auth before the island runs keeps what was typed, and sends it once', async ({ page }) => {
    const release = await holdIslands(page);
    await page.goto('/auth', { waitUntil: 'commit' });
    // A tap on Register before the scripts arrive: the link opens the page on that form.
    await page.getByRole('link', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/auth\?tab=register$/);
    const registers = countPosts(page, '/api/register');
    const username = unique('tapped');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email (optional)').fill(`${username}@example.com`);
    await page.getByLabel('First name (optional)').fill('Tapped');
    await page.getByLabel('Password').fill('tangerine-orbit-42');
    release();
    await hydrated(page.getByLabel('Username'));
    await expect(page.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Username')).toHaveValue(username);
    await expect(page.getByLabel('Email (optional)')).toHaveValue(`${username}@example.com`);
    await expect(page.getByLabel('First name (optional)')).toHaveValue('Tapped');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Account Created!')).toBeVisible();
    expect(registers()).toBe(1);
    const made = (await users()).filter((u) => u.username === username.toLowerCase());
    expect(made).toHaveLength(1);
    expect(made[0]?.email).toBe(`${username}@example.com`);
  });

  test('register and log in with what was typed before hydration', async ({ page }) => {
    const release = await holdIslands(page);
    await page.goto('/auth?tab=register', { waitUntil: 'commit' });
    const username = unique('early');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('tangerine-orbit-42');
    release();
    await hydrated(page.getByLabel('Username'));
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Account Created!')).toBeVisible();
    expect((await users()).some((u) => u.username === username.toLowerCase())).toBe(true);

    const again = await holdIslands(page);
    await page.goto('/auth', { waitUntil: 'commit' });
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    again();
    await hydrated(page.getByLabel('Username'));
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });
});

test.describe('submitted right after hydration', () => {
  test('a subscription and a comment are each sent once, by the island, not also by the browser', async ({ page }) => {
    await withConsentDecided(page);
    await page.goto('/');
    const subscribes = countPosts(page, '/api/newsletter/subscribe');
    const field = page.locator('#newsletter').getByLabel('Email address');
    await hydrated(field);
    const email = `${unique('once')}@example.com`;
    await field.fill(email);
    await page.locator('#newsletter').getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.locator('#newsletter').getByRole('status')).toHaveText('Thanks for subscribing!');
    expect(subscribes()).toBe(1);
    expect(page.url()).not.toContain('#newsletter');

    await page.goto(`/blog/${POST_SLUG}`);
    const comments = countPosts(page, '/comments');
    const content = `Once only ${unique()}`;
    await hydrated(page.getByRole('textbox', { name: 'Comment' }));
    await page.getByLabel('Name').fill('Once');
    await page.getByLabel('Email', { exact: true }).fill('once@example.com');
    await page.getByRole('textbox', { name: 'Comment' }).fill(content);
    await page.getByRole('button', { name: 'Post Comment' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your comment has been submitted for approval.' })).toBeVisible();
    expect((await allComments()).filter((c) => c.content === content)).toHaveLength(1);
    expect(comments()).toBe(1);
  });

  test('registering and logging in are each sent once, by the island', async ({ page }) => {
    await page.goto('/auth?tab=register');
    const registers = countPosts(page, '/api/register');
    const username = unique('oncereg');
    await hydrated(page.getByLabel('Username'));
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('tangerine-orbit-42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Account Created!')).toBeVisible();
    expect(registers()).toBe(1);
    expect((await users()).filter((u) => u.username === username.toLowerCase())).toHaveLength(1);

    await page.goto('/auth');
    const logins = countPosts(page, '/api/login');
    await hydrated(page.getByLabel('Username'));
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    expect(logins()).toBe(1);
  });

  test('the comment form checks the fields in the browser before sending anything', async ({ page }) => {
    await withConsentDecided(page);
    await page.goto(`/blog/${POST_SLUG}`);
    await hydrated(page.getByRole('textbox', { name: 'Comment' }));
    let sent = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/comments')) sent++;
    });
    await page.getByLabel('Name').fill('Quick');
    await page.getByLabel('Email', { exact: true }).fill('nope');
    await page.getByRole('button', { name: 'Post Comment' }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Comment is required')).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
    expect(sent).toBe(0);
  });
});

test('the footer shows CONTACT_EMAIL when it is set, and no made-up address otherwise', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('footer a[href^="mailto:"]')).toHaveAttribute('href', 'mailto:hello@example.com');
  await page.goto(`${EMPTY_URL}/`);
  await expect(page.locator('footer a[href^="mailto:"]')).toHaveCount(0);
  await expect(page.locator('footer')).not.toContainText('@127.0.0.1');
});

test('Admin → E-mails is in the menu and says when nothing was sent yet', async ({ page }) => {
  await loginAs(page, EMPTY_URL);
  await page.goto(`${EMPTY_URL}/admin/dashboard`);
  await expect(page.getByText('E-mail is not set up')).toBeVisible();
  await page.getByRole('link', { name: 'E-mails' }).first().click();
  await expect(page.getByRole('heading', { name: 'E-mails', level: 1 })).toBeVisible();
  await expect(page.getByText('No e-mails yet')).toBeVisible();
});

test('with JavaScript off, forgot password and the reset page answer with their messages', async ({ browser, baseURL }) => {
  const page = await noScriptPage(browser, baseURL);
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/auth\/forgot$/);
  await page.getByLabel('Username or e-mail').fill('someone-who-does-not-exist');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('a link to set a new password is on its way');
  await page.goto('/auth/reset?token=not-a-real-token');
  await page.getByLabel('New password').fill('tangerine-orbit-42');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toContainText('This link has expired or was already used');
  await page.context().close();
});
