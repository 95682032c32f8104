// Admin → Issues, as the owner uses it: write an issue in the editor, send a test, send it after
// a confirmation that names the number of recipients, and watch it finish. On the payments
// server, whose mail goes to the SMTP double.
import { expect, test } from '@playwright/test';
import { PAY_URL } from '../../playwright.config';
import { loginAs, mailTo, unique } from './helpers';

test('write an issue, send a test, send it to every confirmed subscriber and see it sent', async ({ page }) => {
  test.setTimeout(60_000);
  await loginAs(page, PAY_URL);
  // A confirmed subscriber of the demo content, whose copy the inbox will show. (No subscriber is
  // added: other tests of this server count and order the list.)
  const subscribers = (await (await page.request.get(`${PAY_URL}/api/newsletter/subscribers`)).json()) as { email: string; status: string }[];
  const reader = subscribers.find((s) => s.status === 'active')!.email;
  const audience = ((await (await page.request.get(`${PAY_URL}/api/admin/broadcasts/audience`)).json()) as { count: number }).count;
  expect(audience).toBeGreaterThan(0);

  await page.goto(`${PAY_URL}/admin/newsletter/issues`);
  await page.getByRole('link', { name: 'New issue' }).click();
  const subject = `Weekly Edge ${unique()}`;
  await page.getByLabel('Subject').fill(subject);
  await page.getByRole('textbox', { name: 'Content' }).click();
  await page.keyboard.type('Three habits that keep a team calm under pressure.');
  await page.getByLabel('Send a test to').fill('not-an-email');
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByText('Valid email is required')).toBeVisible();
  await page.getByLabel('Send a test to').fill('owner@example.com');
  await page.getByRole('button', { name: 'Send test' }).click();
  const testCopy = await mailTo('owner@example.com', new RegExp(`^\\[TEST\\] ${subject}$`));
  expect(testCopy.text).toContain('Three habits that keep a team calm under pressure.');

  await page.getByRole('button', { name: 'Send…' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`It goes to ${audience} confirmed subscriber`);
  await dialog.getByRole('button', { name: `Send to ${audience}` }).click();
  await expect(page.getByText('sent', { exact: true })).toBeVisible({ timeout: 30_000 });
  // Every recipient the dialog named got it.
  await expect(page.getByRole('region', { name: 'Sending' })).toContainText(new RegExp(`Recipients\\s*${audience}\\s*Sent\\s*${audience}(?!\\d)`));
  const copy = await mailTo(reader, new RegExp(`^${subject}$`));
  expect(copy.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  expect(copy.text).toContain('Three habits that keep a team calm under pressure.');

  // The issue is in the public archive.
  await page.goto(`${PAY_URL}/newsletter/archive`);
  await page.getByRole('link', { name: subject }).click();
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
});

test("'Send by e-mail' on a published post starts an issue from it; Admin → Newsletter checks the sending domain", async ({ page }) => {
  await loginAs(page, PAY_URL);
  const posts = (await (await page.request.get(`${PAY_URL}/api/blog-posts?published=true`)).json()) as { id: number; title: string; content: string }[];
  const post = posts[0];
  await page.goto(`${PAY_URL}/admin/blog/edit/${post.id}`);
  await page.getByRole('link', { name: 'Send by e-mail' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/newsletter/issues/new\\?post=${post.id}$`));
  await expect(page.getByLabel('Subject')).toHaveValue(post.title);
  const firstWords = post.content
    .replace(/<[^>]+>/g, ' ')
    .trim()
    .split(/\s+/)
    .slice(0, 4)
    .join(' ');
  await expect(page.getByRole('textbox', { name: 'Content' })).toContainText(firstWords);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(/\/admin\/newsletter\/issues\/\d+$/);
  const id = Number(/(\d+)$/.exec(page.url())![1]);
  const saved = (await (await page.request.get(`${PAY_URL}/api/admin/broadcasts/${id}`)).json()) as { postId: number; subject: string; status: string };
  expect(saved).toMatchObject({ postId: post.id, subject: post.title, status: 'draft' });

  await page.goto(`${PAY_URL}/admin/newsletter`);
  const domain = page.getByRole('region', { name: /Sending domain/ });
  await expect(domain).toContainText('Sending domain:', { timeout: 15_000 });
  for (const name of ['SPF', 'DKIM', 'DMARC']) await expect(domain.getByText(new RegExp(`^${name} (ok|missing)$`))).toBeVisible();
});
