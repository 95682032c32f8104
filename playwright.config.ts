// Browser tests against the built server, in Debian's Chromium (no browser download).
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { uploadThingToken } from './tests/support/uploadthing-token';

// A random base port unless E2E_PORT is given, so a leftover server never blocks a run;
// set once here, the test workers inherit it.
process.env.E2E_PORT ??= String(10_000 + 5 * Math.floor(Math.random() * 4_000)); // below the ephemeral range
const PORT = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${PORT}`;
/** Debian's Chromium headless shell (installed by `npm test`), else the full Chromium. */
const HEADLESS_SHELL = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p)) ?? '/usr/bin/chromium';
export const E2E_ADMIN = { username: 'e2eadmin', password: 'e2e-admin-password' };
/** A second server on an empty database (SEED_DEMO=false), for empty states. */
export const EMPTY_URL = `http://127.0.0.1:${PORT + 1}`;

/** The Stripe and UploadThing doubles, and a server whose payments and uploads go to them. */
export const STRIPE_DOUBLE_URL = `http://127.0.0.1:${PORT + 2}`;
export const PAY_URL = `http://127.0.0.1:${PORT + 3}`;
/** HTTPS, like the real service, with tests/fixtures/tls's self-signed certificate. */
export const UPLOADTHING_DOUBLE_URL = `https://127.0.0.1:${PORT + 4}`;
/** The SMTP double the payments server sends its mail to, and the HTTP inbox that lists what arrived. */
const SMTP_PORT = PORT + 5;
export const INBOX_URL = `http://127.0.0.1:${SMTP_PORT + 1}`;
/**
 * A server that requires two-factor sign-in for admins, on `localhost` (WebAuthn's relying
 * party must be a domain name, not an IP address).
 */
export const SECURE_URL = `http://localhost:${PORT + 7}`;

const serverEnv = (port: number, seed: boolean, extra: Record<string, string> = {}) => ({
  DATABASE_URL: `tests/.tmp/e2e-${port}/site.db`,
  UPLOADS_DIR: `tests/.tmp/e2e-${port}/uploads`,
  PORT: String(port),
  HOST: '127.0.0.1',
  SITE_URL: `http://127.0.0.1:${port}`,
  SEED_DEMO: String(seed),
  ADMIN_USERNAME: E2E_ADMIN.username,
  ADMIN_PASSWORD: E2E_ADMIN.password,
  LOG_LEVEL: 'warn',
  RATE_LIMITS: 'off',
  FORM_MIN_FILL_MS: '0',
  ...extra,
});

/** A built site on `port`: a fresh database (with the demo content when `seed`) and a known admin for every run. */
const site = (port: number, seed: boolean, extra: Record<string, string> = {}) => ({
  command: `rm -rf tests/.tmp/e2e-${port} && node scripts/prepare.ts && exec node scripts/serve.ts`,
  url: `http://127.0.0.1:${port}/healthz`,
  reuseExistingServer: false,
  timeout: 60_000,
  env: serverEnv(port, seed, extra),
});

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 30_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    baseURL,
    trace: 'off',
    // For the UploadThing double's self-signed certificate (every other server is plain HTTP).
    ignoreHTTPSErrors: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? HEADLESS_SHELL,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    site(PORT, true, { CONTACT_EMAIL: 'hello@example.com', SITE_TIMEZONE: 'America/New_York' }),
    site(PORT + 1, false),
    { command: `exec node tests/support/double-server.ts stripe ${PORT + 2}`, url: `${STRIPE_DOUBLE_URL}/__health`, reuseExistingServer: false, timeout: 30_000 },
    site(PORT + 3, true, {
      STRIPE_SECRET_KEY: 'sk_test_double',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_double',
      STRIPE_WEBHOOK_SECRET: 'whsec_e2e',
      STRIPE_API_URL: STRIPE_DOUBLE_URL,
      UPLOADTHING_TOKEN: uploadThingToken('sk_test_uploadthing_double', 'testapp'),
      UPLOADTHING_INGEST_URL: UPLOADTHING_DOUBLE_URL,
      NODE_EXTRA_CA_CERTS: 'tests/fixtures/tls/localhost-cert.pem',
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      MAIL_RETRY_MS: '500',
      // Where the owner's e-mails go (a package request, a failed payment).
      CONTACT_EMAIL: 'owner@example.com',
    }),
    { command: `exec node tests/support/double-server.ts uploadthing ${PORT + 4}`, url: `${UPLOADTHING_DOUBLE_URL}/__health`, ignoreHTTPSErrors: true, reuseExistingServer: false, timeout: 30_000 },
    { command: `exec node tests/support/double-server.ts smtp ${SMTP_PORT}`, url: `${INBOX_URL}/__health`, reuseExistingServer: false, timeout: 30_000 },
    site(PORT + 7, false, { SITE_URL: SECURE_URL, REQUIRE_2FA_FOR_ADMINS: 'true' }),
  ],
});
