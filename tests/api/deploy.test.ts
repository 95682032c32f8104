// Production on a plain server: the site behind Debian's Caddy (deploy/Caddyfile) over real
// https, and the restore drill (a backup taken while the site takes writes, restored into an
// empty folder, serving what it held; --keep rotation).
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as OTPAuth from 'otpauth';
import { Agent, fetch as fetchWith, type RequestInit } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '#db/schema/commerce.ts';
import { freePort } from '#scripts/lib/net.ts';
import { ROOT, TEMPLATE_DB, TMP_DIR } from '#scripts/lib/paths.ts';
import { Client, clientAs, createPost, createProduct, createUser, uploadFile } from '#tests/support/factories.ts';
import { PNG_1X1 } from '#tests/support/media.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

const CADDY = ['/usr/bin/caddy', '/usr/local/bin/caddy'].find((p) => existsSync(p));
if (!CADDY) console.warn('deploy.test.ts: Caddy is not installed (apt-get install caddy): the tests behind Caddy are skipped');

describe.skipIf(!CADDY)('behind Caddy over https (deploy/Caddyfile, tls internal)', () => {
  let site: TestServer;
  let caddy: ChildProcess;
  let origin: string;
  let ca: string;
  let caddyLog = '';

  beforeAll(async () => {
    const port = await freePort();
    origin = `https://127.0.0.1:${port}`;
    site = await startServer({ SITE_URL: origin, TRUST_PROXY: '1', RATE_LIMITS: 'on', HOST: '127.0.0.1' });
    // The Caddyfile an operator copies, with this machine's names: a local CA instead of
    // Let's Encrypt, and nothing on port 80 or Caddy's admin port (other servers run here).
    const home = join(TMP_DIR, `caddy-${randomUUID()}`);
    mkdirSync(home, { recursive: true });
    const shipped = readFileSync(join(ROOT, 'deploy/Caddyfile'), 'utf8');
    const upstream = new URL(site.url).host;
    const config =
      `{\n\tadmin off\n\tauto_https disable_redirects\n\tskip_install_trust\n\thttp_port ${await freePort()}\n\thttps_port ${port}\n}\n` +
      shipped.replace(/^example\.com \{$/m, `${origin} {\n\ttls internal\n\tbind 127.0.0.1`).replace(/^(\s*reverse_proxy) 127\.0\.0\.1:4321$/m, `$1 ${upstream}`);
    expect(config).toContain(`reverse_proxy ${upstream}`);
    writeFileSync(join(home, 'Caddyfile'), config);
    caddy = spawn(CADDY!, ['run', '--adapter', 'caddyfile', '--config', join(home, 'Caddyfile')], {
      env: { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    caddy.stdout!.on('data', (d) => (caddyLog += d));
    caddy.stderr!.on('data', (d) => (caddyLog += d));
    const root = join(home, 'data/caddy/pki/authorities/local/root.crt');
    for (let until = Date.now() + 30_000; ;) {
      if (caddy.exitCode !== null) throw new Error(`caddy exited:\n${caddyLog}`);
      if (existsSync(root)) {
        ca = readFileSync(root, 'utf8');
        if ((await visitor('127.0.0.1')('/healthz').catch(() => null))?.status === 200) break;
      }
      if (Date.now() > until) throw new Error(`caddy did not answer over https:\n${caddyLog}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  afterAll(async () => {
    if (caddy && caddy.exitCode === null) {
      caddy.kill('SIGTERM');
      await new Promise((r) => caddy.once('exit', r));
    }
    await site?.stop();
  });

  /** A browser on this machine connecting from `address` (any 127.x.y.z), trusting only Caddy's local CA. */
  function visitor(address: string) {
    const dispatcher = new Agent({ localAddress: address, connect: { ca } });
    return (path: string, init: RequestInit = {}) =>
      fetchWith(`${origin}${path}`, { redirect: 'manual', ...init, dispatcher, headers: { Origin: origin, ...(init.headers as Record<string, string>) } });
  }

  /** A visitor that keeps its cookies and remembers every Set-Cookie it was given. */
  function browser(address: string) {
    const get = visitor(address);
    const jar = new Map<string, string>();
    const given: string[] = [];
    const send = async (method: string, path: string, body?: unknown) => {
      const res = await get(path, {
        method,
        headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), Cookie: [...jar.values()].join('; ') },
        body: body ? JSON.stringify(body) : undefined,
      });
      for (const c of res.headers.getSetCookie()) {
        given.push(c);
        const pair = c.split(';')[0];
        if (/;\s*max-age=0/i.test(c)) jar.delete(pair.slice(0, pair.indexOf('=')));
        else jar.set(pair.slice(0, pair.indexOf('=')), pair);
      }
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : undefined };
    };
    return { given, get: (p: string) => send('GET', p), post: (p: string, b: unknown = {}) => send('POST', p, b) };
  }

  const attributes = (cookie: string) => cookie.split(/;\s*/).map((a) => a.toLowerCase());

  it('marks every cookie of sign-in, two-factor, sign-out, a form post and the preview Secure, and sends HSTS', async () => {
    // An admin signs in (session and device cookies), sets up two-factor, previews the draft
    // site and signs out; then signs in again with the password and the code (two-factor cookie).
    const u = await createUser(site, { isAdmin: true });
    const first = browser('127.0.0.1');
    expect((await first.post('/api/login', { username: u.username, password: u.password })).status).toBe(200);
    const enabled = await first.post('/api/auth/two-factor/enable', { password: u.password });
    expect(enabled.status).toBe(200);
    const totp = OTPAuth.URI.parse(enabled.body!.totpURI as string) as OTPAuth.TOTP;
    expect((await first.post('/api/auth/two-factor/verify-totp', { code: totp.generate() })).status).toBe(200);
    expect((await first.get('/api/admin/site/preview?to=/')).status).toBe(303);
    expect((await first.get('/api/admin/site/preview?exit=1')).status).toBe(303);
    expect((await first.post('/api/logout')).status).toBe(200);
    const second = browser('127.0.0.1');
    expect((await second.post('/api/login', { username: u.username, password: u.password })).body).toEqual({ twoFactorRequired: true });
    const twoFactorCookie = second.given.find((c) => /two[_-]?factor/i.test(c.split('=')[0]));
    expect(twoFactorCookie, second.given.join('\n')).toBeDefined();
    const signedIn = await second.post('/api/auth/two-factor/verify-totp', { code: totp.generate({ timestamp: Date.now() + 30_000 }) });
    expect(signedIn.status).toBe(200);
    expect((await second.get('/api/user')).body).toMatchObject({ id: u.id });

    // A newsletter form posted without JavaScript: the flash cookie, and the page that takes it.
    const get = visitor('127.0.0.1');
    const form = await get('/api/newsletter/subscribe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _form: 'home-newsletter', _return: '/#newsletter', email: `flash-${randomUUID()}@example.com`, website: '' }).toString(),
    });
    expect(form.status).toBe(303);
    const flash = form.headers.getSetCookie();
    expect(flash.some((c) => c.startsWith('site.flash='))).toBe(true);
    const page = await get('/', { headers: { Cookie: flash[0].split(';')[0] } });
    expect(page.status).toBe(200);
    // Its links (the canonical address, the feeds) name the https origin.
    const html = await page.text();
    expect(html).toContain(`${origin}/`);
    expect(html).not.toContain('http://127.0.0.1');

    const all = [...first.given, ...second.given, ...flash, ...page.headers.getSetCookie()];
    const names = new Set(all.map((c) => c.slice(0, c.indexOf('='))));
    for (const name of ['__Secure-site.session_token', 'site.device', 'site_preview', 'site.flash']) expect(names, [...names].join(', ')).toContain(name);
    expect(all.filter((c) => !attributes(c).includes('secure'))).toEqual([]);
    // HSTS on pages, API answers and the built assets alike.
    const asset = html.match(/\/_astro\/[\w.-]+\.(css|js)/)?.[0];
    expect(asset).toBeDefined();
    const hsts = { page: page.headers.get('strict-transport-security'), api: signedIn.headers.get('strict-transport-security'), asset: (await get(asset!)).headers.get('strict-transport-security') };
    expect(
      Object.values(hsts).every((h) => /max-age=\d{7,}/.test(h ?? '')),
      JSON.stringify(hsts),
    ).toBe(true);
  });

  it('counts each visitor under the address Caddy saw, whatever X-Forwarded-For they send', async () => {
    // The newsletter form allows ten sign-ups per address in ten minutes.
    const subscribe = (from: ReturnType<typeof visitor>, forwardedFor?: string) =>
      from('/api/newsletter/subscribe', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) },
        body: JSON.stringify({ email: `limit-${randomUUID()}@example.com` }),
      }).then((r) => r.status);
    const a = visitor('127.0.0.2');
    const b = visitor('127.0.0.3');
    // Each of A's requests claims another address: they all count as A's.
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push(await subscribe(a, `203.0.113.${i + 1}`));
    expect(
      statuses.slice(0, 10).every((s) => s === 201),
      statuses.join(' '),
    ).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(await subscribe(a)).toBe(429);
    // Another visitor (another address behind the same proxy) is not held back by A...
    expect(await subscribe(b)).toBe(201);
    // ...and cannot spend A's allowance by naming A's address either.
    expect(await subscribe(b, '127.0.0.2')).toBe(201);
  });
});

describe('restore drill', () => {
  it('restores a backup taken while the site takes writes into an empty folder: same posts, subscribers, orders, files and sessions', async () => {
    // The live site, as on a server: its database, secret, uploads and private files in one folder.
    const live = join(TMP_DIR, `live-${randomUUID()}`);
    mkdirSync(live);
    copyFileSync(TEMPLATE_DB, join(live, 'site.db'));
    const liveEnv = { DATABASE_URL: join(live, 'site.db'), UPLOADS_DIR: join(live, 'uploads'), BETTER_AUTH_SECRET: '' };
    const server = await startServer(liveEnv);
    const backups = join(TMP_DIR, `backups-${randomUUID()}`);
    const backup = (...args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const p = spawn(process.execPath, ['scripts/backup.ts', backups, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, ...liveEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        p.stdout.on('data', (d) => (out += d));
        p.stderr.on('data', (d) => (out += d));
        p.once('exit', (code) => resolve({ code, out }));
      });
    try {
      const admin = await clientAs(server, 'admin');
      const post = createPost(server, admin.user.id, { title: 'Still here after the restore', slug: 'still-here' });
      const product = createProduct(server, { name: 'Workbook' });
      const file = await fetch(`${server.url}/api/products/${product.id}/files?name=workbook.pdf`, {
        method: 'POST',
        headers: { Origin: server.url, Cookie: admin.cookie, 'Content-Type': 'application/pdf' },
        body: '%PDF-1.4 the workbook',
      });
      expect(file.status).toBe(201);
      const image = await uploadFile(admin, PNG_1X1, 'image/png');
      expect(image.status).toBe(200);
      server.db.insert(orders).values({ productId: product.id, productName: 'Workbook', amount: 4900, status: 'succeeded', paymentIntentId: 'pi_drill', customerEmail: 'buyer@example.com' }).run();
      const before = new Client(server);
      for (let i = 0; i < 5; i++) expect((await before.post('/api/newsletter/subscribe', { email: `before-${i}@example.com` })).status).toBe(201);

      // Sign-ups keep coming, one after another, for as long as the backup runs.
      const taken = backup();
      let running = true;
      void taken.then(() => (running = false));
      const during: string[] = [];
      const visitor = new Client(server);
      while (running) {
        const email = `during-${during.length}@example.com`;
        expect((await visitor.post('/api/newsletter/subscribe', { email })).status).toBe(201);
        during.push(email);
      }
      const { code, out } = await taken;
      expect(code, out).toBe(0);
      expect(during.length).toBeGreaterThan(0);

      // Restored into an empty folder: the backup's files where the server looks for them.
      const folder = join(backups, readdirSync(backups)[0]);
      const restored = join(TMP_DIR, `restored-${randomUUID()}`);
      mkdirSync(restored);
      for (const name of ['site.db', '.auth-secret']) copyFileSync(join(folder, name), join(restored, name));
      cpSync(join(folder, 'uploads'), join(restored, 'uploads'), { recursive: true });
      cpSync(join(folder, 'private'), join(restored, 'private'), { recursive: true });
      const check = new Database(join(restored, 'site.db'), { readonly: true });
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      check.close();
      const back = await startServer({ DATABASE_URL: join(restored, 'site.db'), UPLOADS_DIR: join(restored, 'uploads'), BETTER_AUTH_SECRET: '' });
      try {
        const page = await fetch(`${back.url}/blog/still-here`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain(post.title);
        // The admin's session from before the backup still signs in (the same secret).
        const sameAdmin = Object.assign(new Client(back), { cookie: admin.cookie });
        const subscribers = (await sameAdmin.get('/api/newsletter/subscribers')).body as { email: string }[];
        const emails = new Set(subscribers.map((s) => s.email));
        for (let i = 0; i < 5; i++) expect(emails.has(`before-${i}@example.com`)).toBe(true);
        // Sign-ups made while it ran are each there or not, never half: the copy is one moment's.
        const kept = during.filter((e) => emails.has(e));
        expect(kept).toEqual(during.slice(0, kept.length));
        expect((await sameAdmin.get('/api/admin/orders')).body).toMatchObject([{ paymentIntentId: 'pi_drill', customerEmail: 'buyer@example.com', status: 'succeeded' }]);
        const files = (await sameAdmin.get(`/api/products/${product.id}/files`)).body as { fileName: string; storageKey?: string }[];
        expect(files.map((f) => f.fileName)).toEqual(['workbook.pdf']);
        expect(readdirSync(join(restored, 'private')).map((n) => readFileSync(join(restored, 'private', n), 'utf8'))).toEqual(['%PDF-1.4 the workbook']);
        const served = await fetch(`${back.url}${image.body.url as string}`);
        expect(served.status).toBe(200);
        expect(Buffer.from(await served.arrayBuffer()).equals(PNG_1X1)).toBe(true);
      } finally {
        await back.stop();
      }

      // Rotation: two older backups (named as the script names them) and a folder of the
      // operator's; with --keep 3 the newest three backups stay, and the operator's folder.
      for (const name of ['2026-01-01T03-00-00-000Z', '2026-01-02T03-00-00-000Z', 'notes']) mkdirSync(join(backups, name));
      expect((await backup('--keep', '3')).code).toBe(0);
      const left = readdirSync(backups).sort();
      expect(left).toHaveLength(4);
      expect(left.slice(0, 2)).toEqual(['2026-01-02T03-00-00-000Z', basename(folder)]);
      expect(left.at(-1)).toBe('notes');
      const refused = await backup('--keep', '0');
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('--keep must be a whole number of backups, 1 or more');
      expect(readdirSync(backups)).toHaveLength(4);
    } finally {
      await server.stop();
    }
    // Three servers start and two backups run.
  }, 120_000);
});
