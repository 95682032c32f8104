// Admin → Redirects: an old address added in the screen sends a browser on to the new one,
// counts the visit, and can be edited and deleted.
import { expect, request as http, test } from '@playwright/test';
import { CLOSE, loginAs, unique } from './helpers';

/** What a visitor who is not signed in gets for `path`, without following a redirect. */
async function publicGet(baseURL: string, path: string) {
  const visitor = await http.newContext({ baseURL });
  const res = await visitor.get(path, { maxRedirects: 0, headers: CLOSE });
  const answer = { status: res.status(), location: res.headers()['location'] ?? null };
  await visitor.dispose();
  return answer;
}

test.beforeEach(async ({ page, baseURL }) => {
  await loginAs(page, baseURL!);
});

test('the admin adds a redirect, a visit to the old address lands on the new one, then edits and deletes it', async ({ page, baseURL }) => {
  const oldPath = `/2019/05/${unique('old-post-')}`;
  await page.goto('/admin/redirects');
  await expect(page.getByRole('heading', { name: 'Redirects', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Add Redirect' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Redirect' });
  await dialog.getByLabel('Old address').fill(`https://old.example.com${oldPath}/`);
  await dialog.getByLabel('New address').fill('/podcast');
  await dialog.getByRole('button', { name: 'Add Redirect' }).click();
  await expect(page.getByText('Redirect added', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('article', { name: `From ${oldPath}` });
  await expect(row).toContainText('/podcast');
  await expect(row).toContainText('0 hits');
  await expect(row.getByText('Added by hand')).toBeVisible();

  // The old address, as a link from elsewhere would give it (a trailing slash, another case).
  await page.goto(`${oldPath.toUpperCase()}/`);
  await expect(page).toHaveURL(/\/podcast$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  await page.goto('/admin/redirects');
  await expect(row).toContainText('1 hit');

  await row.getByRole('button', { name: `Edit redirect from ${oldPath}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Redirect' });
  await expect(edit.getByLabel('Old address')).toHaveValue(oldPath);
  await expect(edit.getByLabel('New address')).toHaveValue('/podcast');
  // Refused where it was typed: an address browsers would take to another site.
  await edit.getByLabel('New address').fill('//evil.example.com');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit.getByText('New address must be a path of this site starting with / or a full http(s) address')).toBeVisible();
  await edit.getByLabel('New address').fill('/work-with-me');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Redirect updated', { exact: true })).toBeVisible();
  await expect(row).toContainText('/work-with-me');
  expect(await publicGet(baseURL!, oldPath)).toEqual({ status: 301, location: '/work-with-me' });

  await row.getByRole('button', { name: `Delete redirect from ${oldPath}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Redirect' }).click();
  await expect(page.getByText('Redirect deleted', { exact: true })).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await publicGet(baseURL!, oldPath)).status).toBe(404);
});
