// Run-time configuration, validated once. Read from process.env (never baked in at build),
// so one build serves any environment. Imported by the server and by the CLI scripts, hence
// relative imports with .ts extensions only (Node runs those files directly).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as z from 'zod';
import { UsernameSchema } from '#shared/schemas/auth.ts';
import { isTimeZone } from '#shared/time.ts';
import { ADMIN_PASSWORD_MIN, passwordProblem } from './passwords.ts';

const optional = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();
const url = (name: string) =>
  z
    .string()
    .trim()
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), `${name} must be an http(s) URL`);

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An UploadThing token: base64 of JSON `{apiKey, appId, regions}`, as the dashboard gives it. */
const UploadThingToken = z.object({ apiKey: z.string().startsWith('sk_'), appId: z.string().min(1), regions: z.array(z.string().min(1)).min(1) });
const isUploadThingToken = (v: string | undefined) => {
  if (v === undefined) return true;
  try {
    return UploadThingToken.safeParse(JSON.parse(Buffer.from(v, 'base64').toString('utf8'))).success;
  } catch {
    return false;
  }
};

const EnvSchema = z
  .object({
    NODE_ENV: z.string().optional(),
    PORT: z.coerce.number({ error: 'PORT must be a number' }).int().min(1).max(65535).default(4321),
    HOST: z.string().trim().min(1).default('localhost'),
    DATABASE_URL: z.string().trim().min(1).default('./data/site.db'),
    UPLOADS_DIR: z.string().trim().min(1).default('./data/uploads'),
    /** Files sold with products; never served publicly. Default: `private` beside the database. */
    PRIVATE_FILES_DIR: optional,
    SITE_URL: url('SITE_URL').optional(),
    // The time zone schedules are entered in and admin dates are shown in (an IANA name).
    SITE_TIMEZONE: z
      .string()
      .trim()
      .refine((v) => isTimeZone(v), 'SITE_TIMEZONE must be an IANA time zone such as Europe/Berlin')
      .default('UTC'),
    BETTER_AUTH_SECRET: z.string().min(32, 'BETTER_AUTH_SECRET must be at least 32 characters').optional(),
    ADMIN_USERNAME: optional,
    ADMIN_PASSWORD: optional,
    SEED_DEMO: bool.default(true),
    STRIPE_SECRET_KEY: optional,
    STRIPE_PUBLISHABLE_KEY: optional,
    STRIPE_WEBHOOK_SECRET: optional,
    STRIPE_API_URL: url('STRIPE_API_URL').optional(),
    SMTP_URL: optional.refine(
      (v) => v === undefined || (URL.canParse(v) && /^smtps?:$/.test(new URL(v).protocol) && new URL(v).hostname !== ''),
      'SMTP_URL must be smtp://user:pass@host:port or smtps://user:pass@host:port',
    ),
    MAIL_FROM: optional,
    NOTIFY_COMMENTS: bool.default(true),
    NOTIFY_REGISTRATIONS: bool.default(true),
    NOTIFY_APPROVALS: bool.default(true),
    // All three: every e-mail is DKIM-signed (the key is PEM text or the path of a PEM file).
    DKIM_DOMAIN: optional.refine((v) => v === undefined || /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(v), 'DKIM_DOMAIN must be a domain name such as example.com'),
    DKIM_SELECTOR: optional.refine((v) => v === undefined || /^[a-z0-9][a-z0-9._-]{0,62}$/i.test(v), 'DKIM_SELECTOR must be a selector such as mail2026'),
    DKIM_PRIVATE_KEY: optional,
    // The DNS servers the From-domain check asks (ip or ip:port, comma-separated); unset = the system's.
    DNS_SERVERS: optional.refine(
      (v) => v === undefined || v.split(',').every((s) => /^[\d.]+(:\d{1,5})?$|^\[?[\da-f:]+\]?(:\d{1,5})?$/i.test(s.trim())),
      'DNS_SERVERS must be addresses such as 1.1.1.1 or 127.0.0.1:5353, comma-separated',
    ),
    BROADCAST_RATE: z.coerce.number({ error: 'BROADCAST_RATE must be a number' }).positive('BROADCAST_RATE must be more than 0').max(10_000).default(10),
    BROADCAST_DAILY_LIMIT: z.coerce.number({ error: 'BROADCAST_DAILY_LIMIT must be a number' }).int().min(1).optional(),
    MAIL_RETRY_MS: z.coerce.number({ error: 'MAIL_RETRY_MS must be a number' }).int().min(100).max(3_600_000).default(30_000),
    KIT_API_KEY: optional,
    KIT_API_URL: url('KIT_API_URL').optional(),
    KIT_FORM_ID: optional,
    UPLOADTHING_TOKEN: optional.refine(isUploadThingToken, 'UPLOADTHING_TOKEN must be the token from the UploadThing dashboard (base64 of {apiKey, appId, regions})'),
    UPLOADTHING_INGEST_URL: url('UPLOADTHING_INGEST_URL').optional(),
    ANALYTICS_ID: optional,
    // An offline IP-to-country database (.mmdb): visits get a country; unset, none.
    GEOIP_DB: optional.refine((v) => v === undefined || existsSync(v), 'GEOIP_DB must be the path of an .mmdb file (an IP-to-country database)'),
    ANALYTICS_DASHBOARD_URL: url('ANALYTICS_DASHBOARD_URL').optional(),
    BOOKING_URL: url('BOOKING_URL').optional(),
    // How long before a booking its reminders go out: minutes, or seconds with an 's' (tests).
    BOOKING_REMINDER_OFFSETS: z
      .string()
      .trim()
      .default('1440,60')
      .refine((v) => v === '' || v.split(',').every((p) => /^\d{1,6}s?$/.test(p.trim())), 'BOOKING_REMINDER_OFFSETS must be minutes before a booking, comma-separated, such as 1440,60')
      .transform((v) => [
        ...new Set(
          v
            .split(',')
            .filter((p) => p.trim() !== '')
            .map((p) => (p.trim().endsWith('s') ? Number(p.trim().slice(0, -1)) : Number(p.trim()) * 60)),
        ),
      ]),
    APPLE_PODCASTS_URL: url('APPLE_PODCASTS_URL').optional(),
    SPOTIFY_URL: url('SPOTIFY_URL').optional(),
    CONTACT_EMAIL: z.email('CONTACT_EMAIL must be an e-mail address').optional(),
    PODCAST_OWNER_NAME: optional,
    PODCAST_OWNER_EMAIL: z.email('PODCAST_OWNER_EMAIL must be an e-mail address').optional(),
    PODCAST_ARTWORK_URL: optional,
    PODCAST_CATEGORY: optional,
    // Podcasting 2.0 <podcast:locked>: yes asks podcast hosts not to import the feed elsewhere.
    PODCAST_LOCKED: bool.default(false),
    // After moving the show to another host: Apple follows <itunes:new-feed-url> there.
    PODCAST_NEW_FEED_URL: url('PODCAST_NEW_FEED_URL').optional(),
    // A WordPress import fetches media from loopback, private and link-local addresses only when
    // this is true (an old site on the operator's own network).
    IMPORT_ALLOW_PRIVATE_HOSTS: bool.default(false),
    // Every admin must turn on two-factor sign-in before anything else in the admin.
    REQUIRE_2FA_FOR_ADMINS: bool.default(false),
    RATE_LIMITS: z.enum(['on', 'off'], { error: 'RATE_LIMITS must be on or off' }).default('on'),
    // How many reverse proxies stand in front of the server: true means one, false none.
    TRUST_PROXY: z
      .string()
      .trim()
      .regex(/^(true|false|yes|no|[0-9])$/, 'TRUST_PROXY must be true, false or the number of proxies in front of the server (0-9)')
      .transform((v) => (v === 'true' || v === 'yes' ? 1 : v === 'false' || v === 'no' ? 0 : Number(v)))
      .default(0),
    FORM_MIN_FILL_MS: z.coerce.number({ error: 'FORM_MIN_FILL_MS must be a number' }).int().min(0).max(60_000).default(800),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((e) => !e.ADMIN_USERNAME === !e.ADMIN_PASSWORD, { message: 'ADMIN_USERNAME and ADMIN_PASSWORD must be set together', path: ['ADMIN_PASSWORD'] })
  .refine((e) => [e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY].filter(Boolean).length % 3 === 0, {
    message: 'DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY must be set together',
    path: ['DKIM_PRIVATE_KEY'],
  })
  .superRefine((e, ctx) => {
    const name = e.ADMIN_USERNAME ? UsernameSchema.safeParse(e.ADMIN_USERNAME) : null;
    if (name && !name.success) ctx.addIssue({ code: 'custom', message: name.error.issues[0]!.message, path: ['ADMIN_USERNAME'] });
    const problem = e.ADMIN_PASSWORD ? passwordProblem(e.ADMIN_PASSWORD, ADMIN_PASSWORD_MIN) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['ADMIN_PASSWORD'] });
  });

/** The name of every variable the configuration reads (the environment file templates list each). */
export const ENV_NAMES: readonly string[] = Object.keys(EnvSchema.shape);

export type Env = z.infer<typeof EnvSchema> & { SITE_URL: string; BETTER_AUTH_SECRET: string };

/** The secret is generated once and kept beside the database, so sessions survive restarts. */
function secretFor(databaseUrl: string): string {
  const file = resolve(dirname(resolve(databaseUrl)), '.auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

/** Parses the environment; throws an Error listing every bad variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings from .env files mean "unset".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.data;
  return { ...e, SITE_URL: (e.SITE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''), BETTER_AUTH_SECRET: e.BETTER_AUTH_SECRET ?? secretFor(e.DATABASE_URL) };
}

/** Where product files live: PRIVATE_FILES_DIR, else `private` beside the database. */
export const privateFilesDir = (e: Pick<Env, 'PRIVATE_FILES_DIR' | 'DATABASE_URL'>) => resolve(e.PRIVATE_FILES_DIR ?? join(dirname(e.DATABASE_URL), 'private'));

let cached: Env | undefined;
/** The validated environment of this process. */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

/**
 * For the CLI scripts: validates the environment or exits with the message, and writes the
 * resolved values back to process.env so modules that read env() later agree.
 */
export function loadEnvOrExit(): Env {
  try {
    const e = parseEnv();
    Object.assign(process.env, { PORT: String(e.PORT), HOST: e.HOST, DATABASE_URL: e.DATABASE_URL, UPLOADS_DIR: e.UPLOADS_DIR, SITE_URL: e.SITE_URL, BETTER_AUTH_SECRET: e.BETTER_AUTH_SECRET });
    cached = e;
    return e;
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
