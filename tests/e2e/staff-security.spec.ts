// Account → Security in the browser, on the server that requires two-factor sign-in for admins
// (REQUIRE_2FA_FOR_ADMINS): setting it up, signing in with a code or a backup code, a passkey
// (Chromium's virtual authenticator) and ending another browser's session. Every test has an
// admin of its own, so none depends on another.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { SECURE_URL } from '../../playwright.config';
import { CLOSE, unique } from './helpers';

test.use({ baseURL: SECURE_URL });

const WRONG_CODE = 'That code is not right. Check your app and try again.';
/** A user agent unlike the test browser's, so another browser's session is told apart by its name. */
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const WRITE = { Origin: SECURE_URL, ...CLOSE };

interface Admin {
  username: string;
  password: string;
}

const newAdmin = (prefix: string): Admin => {
  const username = unique(prefix);
  return { username, password: `${username}-Staple-Horse-42` };
};

/**
 * The operator: an admin made with the CLI (`npm run admin -- create`) on the server's database,
 * who turns on two-factor through the API and then makes each test's admin. The CLI takes
 * seconds to start, the API milliseconds.
 */
let operator: APIRequestContext;

test.beforeAll(async ({ playwright }) => {
  const admin = newAdmin('operator');
  const dir = `tests/.tmp/e2e-${new URL(SECURE_URL).port}`;
  // The same database and site address as the server; its auth secret is found beside the database.
  const env = { ...process.env, DATABASE_URL: `${dir}/site.db`, UPLOADS_DIR: `${dir}/uploads`, SITE_URL: SECURE_URL, LOG_LEVEL: 'warn' };
  const run = spawnSync(process.execPath, ['scripts/admin.ts', 'create', admin.username, admin.password, '--admin', '--email', `${admin.username}@example.com`], { env, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);

  operator = await playwright.request.newContext({ baseURL: SECURE_URL });
  expect((await operator.post('/api/login', { data: admin, headers: WRITE })).status()).toBe(200);
  expect((await operator.get('/api/admin/users', { headers: CLOSE })).status()).toBe(403);
  const enabled = await operator.post('/api/auth/two-factor/enable', { data: { password: admin.password }, headers: WRITE });
  expect(enabled.status(), await enabled.text()).toBe(200);
  const { totpURI } = (await enabled.json()) as { totpURI: string };
  const code = OTPAuth.URI.parse(totpURI).generate();
  expect((await operator.post('/api/auth/two-factor/verify-totp', { data: { code }, headers: WRITE })).status()).toBe(200);
});

test.afterAll(async () => {
  await operator?.dispose();
});

/** A new approved admin: registered on the site, then approved and made an admin by the operator. */
async function createAdmin(prefix: string): Promise<Admin> {
  const admin = newAdmin(prefix);
  const registered = await operator.post('/api/register', { data: { ...admin, email: `${admin.username}@example.com` }, headers: WRITE });
  expect(registered.status(), await registered.text()).toBe(201);
  const { id } = (await registered.json()) as { id: string };
  const promoted = await operator.patch(`/api/admin/users/${id}`, { data: { isApproved: true, isAdmin: true }, headers: WRITE });
  expect(promoted.status(), await promoted.text()).toBe(200);
  return admin;
}

/** The login form on /auth, with the password (the page goes on to the code page or the admin). */
async function submitPassword(page: Page, admin: Admin): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Username').fill(admin.username);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

const onPath = (path: string) => (url: URL) => url.pathname === path;

/** Password and then `code` (a backup code when `backup`), ending on the admin dashboard. */
async function signInWithCode(page: Page, admin: Admin, code: string, backup = false): Promise<void> {
  await submitPassword(page, admin);
  await page.waitForURL(onPath('/auth/code'));
  if (backup) await page.getByRole('link', { name: 'Use a backup code' }).click();
  await enterCode(page, code, backup);
}

async function enterCode(page: Page, code: string, backup = false): Promise<void> {
  await page.getByLabel(backup ? 'Backup code' : 'Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function expectDashboard(page: Page): Promise<void> {
  await page.waitForURL(onPath('/admin/dashboard'));
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
}

/**
 * The sidebar's Logout: back on the home page, with no session left. Pressed from the keyboard:
 * on a 720-pixel-high screen the sidebar puts it out of reach of the mouse (its own test below).
 */
async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(onPath('/'));
  expect((await page.request.get('/api/user')).status()).toBe(401);
}

const twoFactorCard = (page: Page) => page.getByRole('region', { name: 'Two-factor sign-in' });

/**
 * On Account → Security: the password, then the secret and backup codes read off the screen, a
 * code computed from the secret, and Turn on. Answers the app (as an authenticator) and the codes.
 */
async function setUpTwoFactor(page: Page, admin: Admin, whileShown?: (card: Locator, backupCodes: string[]) => Promise<void>): Promise<{ totp: OTPAuth.TOTP; backupCodes: string[] }> {
  const card = twoFactorCard(page);
  await expect(card.getByText('Off', { exact: true })).toBeVisible();
  await card.getByLabel('Password').fill(admin.password);
  await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secretText = card.getByTestId('totp-secret');
  await expect(secretText).toHaveText(/^[A-Z2-7]{16,}=*$/);
  const secret = (await secretText.textContent()) ?? '';
  const codes = card.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const backupCodes = await codes.allTextContents();
  expect(new Set(backupCodes).size).toBe(10);
  await whileShown?.(card, backupCodes);

  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  await card.getByLabel('Code from your app').fill(totp.generate());
  await card.getByRole('button', { name: 'Turn on' }).click();
  // The screen reloads with two-factor on.
  await page.waitForURL(onPath('/admin/security'));
  await expect(card.getByText('On', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Turn off' })).toBeVisible();
  return { totp, backupCodes };
}

/** A fresh admin signed in with the password only, who then sets up two-factor (the server requires it). */
async function adminWithTwoFactor(page: Page, prefix: string) {
  const admin = await createAdmin(prefix);
  await submitPassword(page, admin);
  await page.waitForURL(onPath('/admin/dashboard'));
  return { admin, ...(await setUpTwoFactor(page, admin)) };
}

/** A 6-digit code that no step near now gives (so it is surely wrong). */
function wrongCode(totp: OTPAuth.TOTP): string {
  const near = [-1, 0, 1, 2].map((k) => totp.generate({ timestamp: Date.now() + k * 30_000 }));
  return ['123456', '654321', '000000'].find((c) => !near.includes(c))!;
}

/** The step after the one just used (the server refuses a step twice, and accepts one either side). */
const nextCode = (totp: OTPAuth.TOTP) => totp.generate({ timestamp: Date.now() + 30_000 });

test('an admin without two-factor sees only Security, and the admin API refuses them until it is on', async ({ page }) => {
  const admin = await createAdmin('must2fa');
  await submitPassword(page, admin);
  await page.waitForURL(onPath('/admin/dashboard'));

  await expect(page.getByRole('alert').filter({ hasText: 'This site requires two-factor sign-in for admins' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toHaveCount(0);
  // Only the two-factor card: passkeys, sessions and the password wait until it is on.
  await expect(page.getByRole('region', { name: 'Passkeys' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Signed-in sessions' })).toHaveCount(0);
  // Another screen of the menu still shows Security.
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Users', exact: true }).click();
  await page.waitForURL(onPath('/admin/users'));
  await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'User Management' })).toHaveCount(0);

  const refused = await page.request.get('/api/admin/users');
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe('Set up two-factor sign-in first (Account → Security).');

  await setUpTwoFactor(page, admin);
  await expect(page.getByRole('alert').filter({ hasText: 'This site requires two-factor sign-in' })).toHaveCount(0);
  const allowed = await page.request.get('/api/admin/users');
  expect(allowed.status()).toBe(200);
  expect(((await allowed.json()) as { username: string }[]).map((u) => u.username)).toContain(admin.username);

  // The whole admin is open now.
  await expect(page.getByRole('region', { name: 'Passkeys' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Users', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: admin.username, exact: true })).toBeVisible();
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('with two-factor on, the password leads to the code page: a wrong code is refused, the right one signs in', async ({ page }) => {
  const { admin, totp } = await adminWithTwoFactor(page, 'totp');
  await signOut(page);

  await submitPassword(page, admin);
  await page.waitForURL(onPath('/auth/code'));
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in', level: 1 })).toBeVisible();
  // The password alone opened no session.
  expect((await page.request.get('/api/user')).status()).toBe(401);

  await enterCode(page, wrongCode(totp));
  await expect(page.getByText(WRONG_CODE)).toBeVisible();
  await expect(page.getByLabel('Code', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  expect(new URL(page.url()).pathname).toBe('/auth/code');
  expect((await page.request.get('/api/user')).status()).toBe(401);

  await enterCode(page, nextCode(totp));
  await expectDashboard(page);
  const me = await page.request.get('/api/user');
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ username: admin.username, isAdmin: true, twoFactorEnabled: true, mustSetUpTwoFactor: false });
  expect((await page.request.get('/api/admin/users')).status()).toBe(200);
});

test('a backup code from the set-up signs in once, and is refused the second time', async ({ page }) => {
  const { admin, backupCodes } = await adminWithTwoFactor(page, 'backup');
  const [code] = backupCodes;
  await signOut(page);

  await signInWithCode(page, admin, code, true);
  await expectDashboard(page);
  expect((await page.request.get('/api/admin/users')).status()).toBe(200);
  await signOut(page);

  await signInWithCode(page, admin, code, true);
  await expect(page.getByText(WRONG_CODE)).toBeVisible();
  await expect(page.getByLabel('Backup code', { exact: true })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/auth/code');
  expect((await page.request.get('/api/user')).status()).toBe(401);

  // Another of the codes still works.
  await enterCode(page, backupCodes[1], true);
  await expectDashboard(page);
});

test('a device trusted for 30 days signs in with the password alone; another browser is still asked for a code', async ({ page, playwright }) => {
  const { admin, totp } = await adminWithTwoFactor(page, 'trusted');
  await signOut(page);

  await submitPassword(page, admin);
  await page.waitForURL(onPath('/auth/code'));
  await page.getByLabel('Code', { exact: true }).fill(nextCode(totp));
  await page.getByLabel('Trust this device for 30 days').check();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expectDashboard(page);
  await signOut(page);

  await submitPassword(page, admin);
  await expectDashboard(page);
  expect((await page.request.get('/api/admin/users')).status()).toBe(200);

  const elsewhere = await playwright.request.newContext({ baseURL: SECURE_URL });
  const answer = (await (await elsewhere.post('/api/login', { data: admin, headers: WRITE })).json()) as unknown;
  const user = (await elsewhere.get('/api/user', { headers: CLOSE })).status();
  await elsewhere.dispose();
  expect(answer).toEqual({ twoFactorRequired: true });
  expect(user).toBe(401);
});

test('the set-up offers the backup codes as a text file, and Turn on says that two-factor is on', async ({ page }) => {
  const admin = await createAdmin('dlcodes');
  await submitPassword(page, admin);
  await page.waitForURL(onPath('/admin/dashboard'));
  await setUpTwoFactor(page, admin, async (card, codes) => {
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download codes' }).click()]);
    expect(download.suggestedFilename()).toBe('backup-codes.txt');
    const text = await readFile(await download.path(), 'utf8');
    expect(text.trim().split('\n').slice(-10)).toEqual(codes);
  });
  // The screen reloads after Turn on; the confirmation is shown on the reloaded one.
  await expect(page.getByRole('region', { name: 'Notifications (F8)' }).getByText('Two-factor sign-in is on', { exact: true })).toBeVisible();
});

test('a passkey added on Security signs in without the password', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', ctap2Version: 'ctap2_1', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  const { admin, totp } = await adminWithTwoFactor(page, 'passkey');
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await expect(passkeys.getByText('No passkeys yet.')).toBeVisible();
  await passkeys.getByLabel('Name').fill('Laptop');
  await passkeys.getByLabel('Password').fill(admin.password);
  await passkeys.getByLabel('Code from your app').fill(nextCode(totp));
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Passkey added', { exact: true })).toBeVisible();
  await expect(passkeys.getByRole('list', { name: 'Passkeys' }).getByRole('listitem')).toHaveCount(1);
  await expect(passkeys.getByRole('list', { name: 'Passkeys' })).toContainText('Laptop');
  await expect(passkeys.getByRole('button', { name: 'Remove passkey Laptop' })).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0].isResidentCredential).toBe(true);

  await signOut(page);
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expectDashboard(page);
  const me = await page.request.get('/api/user');
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ username: admin.username, isAdmin: true });
  expect((await page.request.get('/api/admin/users')).status()).toBe(200);
});

test('a passkey whose device does not check who holds it (no PIN, fingerprint or face) is neither added nor signs in', async ({ page }) => {
  const NOT_VERIFYING = 'This passkey did not check that it is you (with a PIN, fingerprint or face), so it cannot sign you in. Use one that does, or your password.';
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const authenticator = (verifies: boolean) =>
    cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', ctap2Version: 'ctap2_1', transport: 'internal', hasResidentKey: true, hasUserVerification: verifies, isUserVerified: verifies, automaticPresenceSimulation: true },
    });
  // A security key without a PIN, and a client that does not ask for one.
  const key = (await authenticator(false)).authenticatorId;
  const { admin, totp } = await adminWithTwoFactor(page, 'pkuv');
  expect((await page.request.post('/api/account/passkey-confirm', { headers: WRITE, data: { password: admin.password, code: nextCode(totp) } })).status()).toBe(204);
  const register = (userVerification: UserVerificationRequirement) =>
    page.evaluate(async (uv) => {
      const options = (await (await fetch('/api/auth/passkey/generate-register-options')).json()) as PublicKeyCredentialCreationOptionsJSON;
      const credential = (await navigator.credentials.create({
        publicKey: PublicKeyCredential.parseCreationOptionsFromJSON({ ...options, authenticatorSelection: { ...options.authenticatorSelection, userVerification: uv } }),
      })) as PublicKeyCredential;
      const res = await fetch('/api/auth/passkey/verify-registration', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ response: credential.toJSON(), name: 'Key' }),
      });
      return { status: res.status, message: ((await res.json()) as { message?: string }).message };
    }, userVerification);
  const refused = await register('discouraged');
  expect(refused.status).toBe(400);
  expect(refused.message).toContain('did not check that it is you');
  expect(((await (await page.request.get('/api/auth/passkey/list-user-passkeys')).json()) as unknown[]).length).toBe(0);

  // Added from a device that verifies its user, then moved to the key without a PIN.
  await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: key });
  const laptop = (await authenticator(true)).authenticatorId;
  expect((await register('required')).status).toBe(200);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId: laptop });
  expect(credentials).toHaveLength(1);
  await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: laptop });
  const copy = (await authenticator(false)).authenticatorId;
  await cdp.send('WebAuthn.addCredential', { authenticatorId: copy, credential: credentials[0] });

  // Signed in by it, naming it as a sign-in form with the username first does: Chromium gives the
  // assertion with the user not verified, which the server must refuse.
  await signOut(page);
  await page.goto('/auth');
  const signIn = await page.evaluate(
    async (id) => {
      const options = (await (await fetch('/api/auth/passkey/generate-authenticate-options')).json()) as PublicKeyCredentialRequestOptionsJSON;
      const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON({ ...options, allowCredentials: [{ type: 'public-key', id }], userVerification: 'discouraged' });
      const credential = (await navigator.credentials.get({ publicKey })) as PublicKeyCredential;
      const res = await fetch('/api/auth/passkey/verify-authentication', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response: credential.toJSON() }) });
      return { status: res.status, message: ((await res.json()) as { message?: string }).message };
    },
    credentials[0].credentialId.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''),
  );
  expect(signIn).toEqual({ status: 401, message: NOT_VERIFYING });
  expect((await page.request.get('/api/user')).status()).toBe(401);
});

test("ending another browser's session on Security signs that browser out", async ({ page, browser }) => {
  const { admin, totp } = await adminWithTwoFactor(page, 'sessions');

  const other = await browser.newContext({ baseURL: SECURE_URL, userAgent: FIREFOX_ON_WINDOWS });
  try {
    const pageB = await other.newPage();
    await signInWithCode(pageB, admin, nextCode(totp));
    await expectDashboard(pageB);
    expect((await other.request.get('/api/admin/users')).status()).toBe(200);

    await page.reload();
    const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await expect(sessions).toHaveCount(2);
    const mine = sessions.filter({ hasText: 'This device' });
    await expect(mine).toHaveCount(1);
    await expect(mine.getByRole('button', { name: /^End session/ })).toHaveCount(0);
    const theirs = sessions.filter({ hasText: 'Firefox on Windows' });
    await expect(theirs).not.toContainText('This device');
    await theirs.getByRole('button', { name: 'End session: Firefox on Windows' }).click();
    await expect(page.getByText('Session ended', { exact: true })).toBeVisible();
    await expect(sessions).toHaveCount(1);
    await expect(sessions).toContainText('This device');

    expect((await other.request.get('/api/admin/users')).status()).toBe(401);
    expect((await other.request.get('/api/user')).status()).toBe(401);
    // This browser is still signed in.
    expect((await page.request.get('/api/admin/users')).status()).toBe(200);
  } finally {
    await other.close();
  }
});

test('on a 1280×720 screen the menu is grouped by what the owner does, Logout stays in view and the sidebar scrolls to Security and Audit log', async ({ page }) => {
  const admin = await createAdmin('sidebar');
  await submitPassword(page, admin);
  await page.waitForURL(onPath('/admin/dashboard'));
  const nav = page.getByRole('navigation', { name: 'Admin' });
  const groups = {
    Content: ['Blog', 'Podcast', 'Comments', 'Redirects'],
    Audience: ['Newsletter', 'Issues', 'Sequences', 'Forms', 'Segments', 'Privacy'],
    Business: ['Products', 'Orders', 'Booking', 'Clients'],
    Insights: ['Analytics', 'E-mails', 'Audit log'],
    Site: ['Site', 'Users', 'Settings', 'Security'],
  };
  for (const [group, entries] of Object.entries(groups)) await expect(nav.getByRole('list', { name: group }).getByRole('link')).toHaveText(entries);
  const logout = page.getByRole('button', { name: 'Logout' });
  await expect(logout).toBeInViewport({ ratio: 1 });
  // The list of screens is taller than the window: it scrolls, and the mouse reaches its last entries.
  for (const [name, path] of [
    ['Audit log', '/admin/audit'],
    ['Security', '/admin/security'],
  ] as const) {
    const link = nav.getByRole('link', { name });
    await link.scrollIntoViewIfNeeded();
    await expect(link).toBeInViewport({ ratio: 1 });
    await link.click();
    await page.waitForURL(onPath(path));
  }
  await expect(logout).toBeInViewport({ ratio: 1 });
  await logout.click();
  await page.waitForURL(onPath('/'));
});
