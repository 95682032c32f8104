// Cookie consent: the banner, the 'Cookie Preferences' dialog, what is stored, and the
// privacy policy page that explains it and reopens the dialog.
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, JS_BUDGET_BYTES, pageJsGzipBytes } from '#tests/support/page-checks.ts';

const KEY = 'cookie-consent-preferences';
const banner = (page: Page) => page.getByRole('region', { name: 'Cookie consent' });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Cookie Preferences' });
const stored = (page: Page) =>
  page.evaluate((key) => {
    const raw = localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as Record<string, unknown>);
  }, KEY);

/** Today as the site writes it ('November 24, 2026'). */
const today = () => new Date().toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

test('the banner shows on a first visit with Accept All, Reject All and Customize', async ({ page }) => {
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
  for (const name of ['Accept All', 'Reject All', 'Customize']) await expect(banner(page).getByRole('button', { name })).toBeVisible();
  await expect(banner(page).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
  expect(await stored(page)).toBeNull();
});

test('Accept All hides the banner and stores every category as allowed', async ({ page }) => {
  await page.goto('/');
  await banner(page).getByRole('button', { name: 'Accept All' }).click();
  await expect(banner(page)).toBeHidden();
  const prefs = await stored(page);
  expect(prefs).toMatchObject({ version: '1.0', consentGiven: true, necessary: true, analytics: true, marketing: true, personalization: true });
  expect(new Date(String(prefs?.consentDate)).toString()).not.toBe('Invalid Date');

  await page.reload();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
});

test('Reject All stores false for analytics, marketing and personalization', async ({ page }) => {
  await page.goto('/');
  await banner(page).getByRole('button', { name: 'Reject All' }).click();
  await expect(banner(page)).toBeHidden();
  expect(await stored(page)).toMatchObject({ version: '1.0', consentGiven: true, necessary: true, analytics: false, marketing: false, personalization: false });
});

test('Customize opens the dialog; the necessary switch is locked on; Save Preferences stores the mix', async ({ page }) => {
  await page.goto('/');
  await banner(page).getByRole('button', { name: 'Customize' }).click();
  const d = dialog(page);
  await expect(d).toBeVisible();
  await expect(d.getByText('GDPR Compliant')).toBeVisible();
  await expect(d.getByRole('switch')).toHaveCount(4);

  const necessary = d.getByRole('switch', { name: /Strictly Necessary/ });
  await expect(necessary).toBeDisabled();
  await expect(necessary).toHaveAttribute('aria-checked', 'true');
  for (const name of [/Analytics & Performance/, /Marketing & Advertising/, /Personalization/]) {
    await expect(d.getByRole('switch', { name })).toHaveAttribute('aria-checked', 'false');
  }
  await expect(d.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
  for (const name of ['Reject All', 'Accept All', 'Save Preferences']) await expect(d.getByRole('button', { name })).toBeVisible();

  await d.getByRole('switch', { name: /Analytics & Performance/ }).click();
  await d.getByRole('switch', { name: /Personalization/ }).click();
  await expect(d.getByRole('switch', { name: /Analytics & Performance/ })).toHaveAttribute('aria-checked', 'true');
  await d.getByRole('button', { name: 'Save Preferences' }).click();

  await expect(d).toBeHidden();
  await expect(banner(page)).toBeHidden();
  expect(await stored(page)).toMatchObject({ version: '1.0', consentGiven: true, necessary: true, analytics: true, marketing: false, personalization: true });
});

test('preferences stored under another version are ignored and the banner asks again', async ({ page }) => {
  await page.addInitScript((key) => {
    localStorage.setItem(key, JSON.stringify({ necessary: true, analytics: true, marketing: true, personalization: true, consentGiven: true, consentDate: new Date().toISOString(), version: '0.9' }));
  }, KEY);
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
});

test('the footer Cookie Settings button opens the dialog, also after consenting', async ({ page }) => {
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
  const settings = page.getByRole('contentinfo').getByRole('button', { name: 'Cookie Settings' });
  await settings.click();
  await expect(dialog(page)).toBeVisible();
  await dialog(page).getByRole('button', { name: 'Reject All' }).click();
  await expect(dialog(page)).toBeHidden();

  await settings.click();
  await expect(dialog(page)).toBeVisible();
  // What was decided is what the dialog shows.
  await expect(dialog(page).getByRole('switch', { name: /Marketing & Advertising/ })).toHaveAttribute('aria-checked', 'false');
  await dialog(page).getByRole('button', { name: 'Close cookie preferences' }).click();
  await expect(dialog(page)).toBeHidden();
});

test('the consent dialog has no serious accessibility violations', async ({ page }) => {
  await page.goto('/privacy-policy');
  await banner(page).getByRole('button', { name: 'Customize' }).click();
  await expect(dialog(page)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test.describe('privacy policy page', () => {
  test('is marked GDPR compliant, updated today, with every section and the cookie categories', async ({ page }) => {
    await page.goto('/privacy-policy');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await expect(page.getByRole('main').getByText('GDPR Compliant')).toBeVisible();
    await expect(page.getByText(`Last updated: ${today()}`)).toBeVisible();

    const article = page.getByRole('article');
    await expect(article.getByRole('heading', { level: 2 })).toHaveText([
      'Introduction',
      'Information We Collect',
      'Cookie Policy',
      'How We Use Your Information',
      'Your Privacy Rights',
      'Contact Us',
    ]);

    const cookies = page.getByRole('region', { name: 'Cookie Policy' });
    for (const title of ['Strictly Necessary', 'Analytics & Performance', 'Marketing & Advertising', 'Personalization']) {
      await expect(cookies.getByRole('heading', { level: 3, name: new RegExp(`^${title}`) })).toBeVisible();
    }
    await expect(cookies.getByRole('heading', { name: 'Strictly Necessary Required' })).toBeVisible();
    await expect(cookies.getByText('Required')).toHaveCount(1);
    await expect(cookies.getByText('Examples:')).toHaveCount(4);
    await expect(cookies.getByText('Session cookie, consent preferences, security tokens')).toBeVisible();

    const rights = page.getByRole('region', { name: 'Your Privacy Rights' });
    for (const name of ['Right of access', 'Right to rectification', 'Right to erasure', 'Right to object']) {
      await expect(rights.getByRole('heading', { level: 3, name })).toBeVisible();
    }

    const contact = page.getByRole('region', { name: 'Contact Us' });
    await expect(contact.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:.+@.+/);
  });

  test('the cookie categories are in the server-rendered HTML', async ({ request }) => {
    const html = await (await request.get('/privacy-policy')).text();
    for (const text of ['Strictly Necessary', 'Analytics &amp; Performance', 'Marketing &amp; Advertising', 'Personalization', 'Required']) {
      expect(html).toContain(text);
    }
  });

  test('shows the consent date after consenting, and Manage Cookie Preferences opens the dialog', async ({ page }) => {
    await page.goto('/privacy-policy');
    const manage = page.getByRole('button', { name: 'Manage Cookie Preferences' });
    await expect(page.getByText(/^You gave consent on/)).toHaveCount(0);

    await banner(page).getByRole('button', { name: 'Accept All' }).click();
    await expect(page.getByText(`You gave consent on ${today()}`)).toBeVisible();

    await manage.click();
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByRole('switch', { name: /Analytics & Performance/ })).toHaveAttribute('aria-checked', 'true');
  });

  test('a returning visitor sees the stored consent date', async ({ page }) => {
    const date = '2026-03-14T10:00:00.000Z';
    await page.addInitScript(
      ([key, consentDate]) => {
        localStorage.setItem(key, JSON.stringify({ necessary: true, analytics: false, marketing: false, personalization: false, consentGiven: true, consentDate, version: '1.0' }));
      },
      [KEY, date],
    );
    await page.goto('/privacy-policy');
    await expect(page.getByText('You gave consent on March 14, 2026')).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
  });

  test('has no serious accessibility violations', async ({ page }) => {
    await page.goto('/privacy-policy');
    await expectNoSeriousA11yViolations(page);
  });

  test('stays within the 70 KB JavaScript budget', async ({ page }) => {
    const { total, files } = await pageJsGzipBytes(page, '/privacy-policy');
    test.info().annotations.push({ type: 'js-gzip-bytes', description: `${total} ${JSON.stringify(files)}` });
    expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES);
  });
});
