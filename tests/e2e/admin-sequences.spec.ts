// Admin → Sequences, as the owner uses it: a tag-triggered sequence with two steps (the second
// only in a sending window), activated, a reader enrolled by address and another from a selection
// of the newsletter list, and the report counting the first step's e-mails once they go. On the payments server, whose mail goes to the SMTP double
// (site time zone UTC); the sequence is deleted at the end, so it starts nothing for later tests.
import { expect, test, type Locator } from '@playwright/test';
import { PAY_URL } from '../../playwright.config';
import { expectNoSeriousA11yViolations } from '#tests/support/page-checks.ts';
import { getJson, loginAs, mailTo, unique } from './helpers';

/** A stat card's text, label first, e.g. 'Enrolled 1'. */
const card = async (report: Locator, label: string) =>
  (
    await report
      .locator(':scope > div')
      .filter({ has: report.page().getByText(label, { exact: true }) })
      .innerText()
  )
    .replace(/\s+/g, ' ')
    .trim();

test('create a sequence, add two steps (one in a sending window), activate it, enrol readers by hand and see the report count them', async ({ page }) => {
  test.setTimeout(60_000);
  await loginAs(page, PAY_URL);
  // A confirmed reader of the demo content (no subscriber is added: other tests count the list).
  const subscribers = await getJson<{ email: string; name: string | null; status: string }[]>(page.request, `${PAY_URL}/api/newsletter/subscribers`);
  const [reader, other] = subscribers.filter((s) => s.status === 'active' && s.name);
  const name = unique('Welcome series ');
  const subject = unique('Welcome aboard ');

  await page.goto(`${PAY_URL}/admin/newsletter/sequences`);
  await page.getByRole('button', { name: 'New sequence' }).click();
  const create = page.getByRole('dialog', { name: 'New sequence' });
  await create.getByLabel('Name').fill(name);
  await create.getByLabel('Starts when').selectOption({ label: 'A tag is added' });
  await create.getByLabel('Tag', { exact: true }).fill(unique('welcome-'));
  await create.getByRole('button', { name: 'Create sequence' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('paused', { exact: true })).toBeVisible();

  // Step 1: at once. Merge tags the server cannot read get its message under the field.
  await page.getByRole('button', { name: 'Add step' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add a step' });
  await dialog.getByLabel('Subject').fill('Hi {{ subscriber.first_name');
  await dialog.getByLabel('Unit').selectOption('minutes');
  await expect(dialog.getByLabel('Wait')).toHaveValue('0');
  await dialog.getByRole('textbox', { name: 'Content' }).click();
  await page.keyboard.type('Hello {{ subscriber.first_name | default: "friend" }}, here is where to start.');
  await dialog.getByRole('button', { name: 'Add step' }).click();
  await expect(dialog.getByText(/^The merge tags in subject could not be read/)).toBeVisible();
  await dialog.getByLabel('Subject').fill(subject);
  await dialog.getByRole('button', { name: 'Add step' }).click();
  await expect(dialog).toBeHidden();

  // Step 2: two days later, only Monday to Thursday, 09:00 to 17:00; an empty window is refused.
  await page.getByRole('button', { name: 'Add step' }).click();
  dialog = page.getByRole('dialog', { name: 'Add a step' });
  await expect(dialog).toContainText('It goes at the end, to everyone still in the sequence; those who already finished it do not get it.');
  await dialog.getByLabel('Subject').fill('Our best posts');
  await dialog.getByLabel('Wait').fill('2');
  await dialog.getByRole('textbox', { name: 'Content' }).click();
  await page.keyboard.type('Three posts our readers come back to.');
  await expect(dialog.getByRole('radio', { name: 'Any time' })).toBeChecked();
  await expect(dialog.getByText("Times are in the site's time zone, UTC.")).toBeVisible();
  await dialog.getByRole('radio', { name: 'Only on' }).click();
  await expectNoSeriousA11yViolations(page, '[role="dialog"] fieldset');
  await dialog.getByLabel('To', { exact: true }).selectOption('09:00');
  await dialog.getByRole('button', { name: 'Add step' }).click();
  await expect(dialog.getByText('The window must end after it starts')).toBeVisible();
  await dialog.getByLabel('To', { exact: true }).selectOption('17:00');
  await dialog.getByRole('checkbox', { name: 'Friday' }).uncheck();
  await dialog.getByRole('button', { name: 'Add step' }).click();
  await expect(dialog).toBeHidden();

  const steps = page.getByRole('region', { name: 'Steps' }).getByRole('listitem');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText(`1. ${subject}`);
  await expect(steps.nth(0)).toContainText('0 minutes after the trigger · 0 sent');
  await expect(steps.nth(0)).not.toContainText('(UTC)');
  await expect(steps.nth(1)).toContainText('2. Our best posts');
  await expect(steps.nth(1)).toContainText('2 days after the previous step · Mon–Thu, 09:00–17:00 (UTC) · 0 sent');

  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(page.getByText('active', { exact: true })).toBeVisible();
  await page.getByLabel("Subscribers' addresses").fill(reader.email);
  await page.getByRole('button', { name: 'Enrol', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Notifications (F8)' })).toContainText('1 enrolled');

  // The first step goes within seconds: the report (read again, as the owner would) counts it.
  const report = page.getByRole('region', { name: 'Report' });
  await expect(async () => {
    await page.reload();
    expect(await card(report, 'Sent')).toBe('Sent 1');
  }).toPass({ timeout: 20_000 });
  expect(await card(report, 'Enrolled')).toBe('Enrolled 1');
  expect(await card(report, 'In it now')).toBe('In it now 1');
  expect(await card(report, 'Completed')).toBe('Completed 0');
  await expect(steps.nth(0)).toContainText('1 sent');
  await expect(steps.nth(1)).toContainText('0 sent');
  const mail = await mailTo(reader.email, new RegExp(`^${subject}$`));
  expect(mail.text).toContain(`Hello ${reader.name!.split(' ')[0]}, here is where to start.`);

  // Another reader, ticked in Admin → Newsletter's list and added from there.
  await page.goto(`${PAY_URL}/admin/newsletter`);
  await page.getByRole('searchbox', { name: 'Search subscribers by e-mail or name' }).fill(other.email);
  await page.getByRole('checkbox', { name: `Select ${other.email}` }).check();
  await page.getByLabel('Add the 1 selected to a sequence').selectOption({ label: name });
  await page.getByRole('button', { name: 'Enrol selected' }).click();
  await expect(page.getByRole('region', { name: 'Notifications (F8)' })).toContainText(`1 of 1 selected joined ${name}`);
  await page.goBack();
  await expect(async () => {
    await page.reload();
    expect(await card(report, 'Sent')).toBe('Sent 2');
  }).toPass({ timeout: 20_000 });
  expect(await card(report, 'Enrolled')).toBe('Enrolled 2');

  // Deleted, after a confirmation, it is gone from the list.
  await page.getByRole('button', { name: 'Delete sequence' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete sequence' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sequences' })).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);
});
