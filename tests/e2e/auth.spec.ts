import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';
import { expectNoSeriousA11yViolations, hydrated } from '#tests/support/page-checks.ts';
import { expectTextsVisible, fillByLabel, loginAs, unique } from './helpers';

async function register(page: Page, username: string, password = 'secret12') {
  await page.goto('/auth');
  await hydrated(page.getByLabel('Username'));
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

/** An admin approves `name` through the API and signs out; then `name` logs in through the form and lands on the home page. */
async function approveThenLogIn(page: Page, origin: string, name: string) {
  await loginAs(page, origin);
  const users = (await (await page.context().request.get('/api/admin/users')).json()) as { id: string; username: string }[];
  const id = users.find((u) => u.username === name)!.id;
  expect((await page.context().request.patch(`/api/admin/users/${id}`, { data: { isApproved: true }, headers: { Origin: origin } })).ok()).toBe(true);
  await page.context().request.post('/api/logout', { headers: { Origin: origin } });

  await page.goto('/auth');
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Password').fill('secret12');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

test('login and register tabs, with the spec messages for bad input', async ({ page }) => {
  await page.goto('/auth');
  await hydrated(page.getByLabel('Username'));
  await expect(page.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Username is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();

  await page.getByRole('tab', { name: 'Register' }).click();
  await fillByLabel(page, { Username: 'ab', 'Email (optional)': 'not-an-email', Password: '123' });
  await page.getByRole('button', { name: 'Create account' }).click();
  await expectTextsVisible(page, ['Username must be at least 3 characters', 'Valid email is required', 'Password must be at least 6 characters']);
});

test('a new account waits for approval, then logs in and lands on the home page', async ({ page, baseURL }) => {
  const name = unique('u');
  await register(page, name);
  await expect(page.getByText('Account Created!')).toBeVisible();
  await expect(page.getByText('Please wait for an admin to approve it before logging in.')).toBeVisible();
  await expect(page.getByText('Registration successful')).toBeVisible();

  await page.getByRole('tab', { name: 'Login' }).click();
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Password').fill('secret12');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Login failed')).toBeVisible();
  await expect(page.getByText(/awaiting admin approval/)).toBeVisible();

  // An admin approves the account through the API; then it logs in.
  await approveThenLogIn(page, baseURL!, name);
  // Logged in: /auth sends a regular user home.
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/$/);
});

test('the tabs are tabs with JavaScript: arrow keys move between them, and the address follows', async ({ page }) => {
  await page.goto('/auth');
  // Links until the visitor first reaches into the forms (the island hydrates then).
  await expect(page.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/auth?tab=register');
  await hydrated(page.getByLabel('Username'));
  const login = page.getByRole('tab', { name: 'Login' });
  await expect(page.getByRole('tablist', { name: 'Account' })).toBeVisible();
  await login.focus();
  await page.keyboard.press('ArrowRight');
  const register = page.getByRole('tab', { name: 'Register' });
  await expect(register).toHaveAttribute('aria-selected', 'true');
  await expect(register).toBeFocused();
  await expect(page.getByRole('tabpanel')).toContainText('Create account');
  await expect(page).toHaveURL(/\/auth\?tab=register$/);
  await page.keyboard.press('ArrowLeft');
  await expect(login).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/auth$/);
});

test('an approved user logging in through the form sees Login successful and Welcome back on the page they land on', async ({ page, baseURL }) => {
  const name = unique('toast');
  const created = await page.request.post('/api/register', { data: { username: name, firstName: 'Toastie', password: 'secret12' }, headers: { Origin: baseURL! } });
  expect(created.status()).toBe(201);
  await approveThenLogIn(page, baseURL!, name);
  const toast = page.getByRole('region', { name: 'Notifications (F8)' });
  await expect(toast.getByText('Login successful')).toBeVisible();
  await expect(toast.getByText('Welcome back, Toastie!')).toBeVisible();
  // Shown once: not again on the next page, where nothing is left for the toaster (it is not even loaded).
  await page.goto('/blog');
  await page.waitForLoadState('networkidle');
  await expect(toast.locator('xpath=ancestor::astro-island[1]')).toHaveAttribute('ssr');
  await expect(toast.getByText('Login successful')).toHaveCount(0);
});

test('an admin is sent to the dashboard, and /auth redirects them there afterwards', async ({ page }) => {
  await page.goto('/auth');
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/admin/dashboard');
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test('wrong password says Login failed', async ({ page }) => {
  await page.goto('/auth');
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Login failed')).toBeVisible();
  await expect(page.getByText('Invalid username or password')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test('the auth page has no serious accessibility violations, before its island hydrates and after', async ({ page }) => {
  await page.goto('/auth');
  await expectNoSeriousA11yViolations(page);
  await hydrated(page.getByLabel('Username'));
  await page.getByRole('tab', { name: 'Login' }).waitFor();
  await expectNoSeriousA11yViolations(page);
});
