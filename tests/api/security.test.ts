import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, clientAs, createPost, createProduct, createUser, uploadFile } from '#tests/support/factories.ts';
import { PNG_1X1 } from '#tests/support/media.ts';
import { ROOT } from '#scripts/lib/paths.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

// (The UploadThing token is checked in uploads-uploadthing.test.ts: set, it sends uploads away.)
const SECRETS = {
  STRIPE_SECRET_KEY: 'sk_test_never_in_the_browser_123',
  STRIPE_WEBHOOK_SECRET: 'whsec_never_in_the_browser_456',
  KIT_API_KEY: 'kit_never_in_the_browser_789',
  BETTER_AUTH_SECRET: 'auth-secret-never-in-the-browser-0123456789abcdef',
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ ...SECRETS, STRIPE_PUBLISHABLE_KEY: 'pk_test_public', KIT_API_URL: 'http://127.0.0.1:9' });
});
afterAll(async () => {
  await server?.stop();
});

function expectBaseline(h: Headers) {
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(h.get('x-frame-options')).toBe('DENY');
  expect(h.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(h.get('x-request-id')).toBeTruthy();
}

describe('security headers', () => {
  it('are on pages, with a script policy in the page itself', async () => {
    const res = await fetch(`${server.url}/`);
    expectBaseline(res.headers);
    const html = await res.text();
    const meta = res.headers.get('content-security-policy') ?? /<meta http-equiv="content-security-policy" content="([^"]+)"/i.exec(html)?.[1] ?? '';
    expect(meta).toContain("default-src 'self'");
    expect(meta).toMatch(/script-src [^;]*'self'/);
    expect(meta).not.toMatch(/script-src [^;]*'unsafe-inline'/);
    expect(meta).toContain("object-src 'none'");
  });

  it("a page's script policy allows exactly the inline scripts it holds", async () => {
    for (const path of ['/', '/blog', '/podcast', '/work-with-me', '/auth']) {
      // The first answer renders the page into the cache, the second comes from it.
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${server.url}${path}`);
        const html = await res.text();
        const own = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
          .filter(([, attrs]) => !/\bsrc=/.test(attrs) && !/type="application\/ld\+json"/.test(attrs))
          .map(([, , body]) => `sha256-${createHash('sha256').update(body).digest('base64')}`);
        const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';
        const listed = [...scriptSrc.matchAll(/'(sha256-[^']+)'/g)].map((m) => m[1]);
        expect(own.length, path).toBeGreaterThan(0);
        expect(listed.toSorted(), `${path}, answer ${i + 1}`).toEqual([...new Set(own)].toSorted());
      }
    }
  });

  it('answer back the request id a proxy gave, rendered or cached, and a new one otherwise', async () => {
    // /newsletter: a page no other test here has put in the cache.
    const states: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/newsletter`, { headers: { 'X-Request-Id': `proxy-id-${i}` } });
      states.push(res.headers.get('x-cache') ?? '');
      expect(res.headers.get('x-request-id')).toBe(`proxy-id-${i}`);
    }
    expect(states).toEqual(['MISS', 'HIT', 'HIT']);
    const ids = await Promise.all([1, 2].map(async () => (await fetch(`${server.url}/newsletter`)).headers.get('x-request-id')));
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).not.toBe(ids[0]);
  });

  it('let Stripe in on the checkout pages and the video players on a page that shows one, and nowhere else', async () => {
    const policyOf = async (path: string) => {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      return res.headers.get('content-security-policy') ?? '';
    };
    const directive = (policy: string, name: string) => new RegExp(`(?:^|;)\\s*${name} ([^;]*)`).exec(policy)?.[1] ?? '';
    const author = await createUser(server);
    const plain = createPost(server, author.id);
    const video = createPost(server, author.id, { content: '<p>Watch:</p><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="A talk"></iframe>' });
    const product = createProduct(server);

    for (const path of ['/', '/blog', `/blog/${plain.slug}`, '/podcast', '/work-with-me', '/newsletter', '/privacy-policy']) {
      const policy = await policyOf(path);
      expect(policy, path).not.toContain('stripe');
      // No frame-src: frames fall back to default-src 'self'.
      expect(policy, path).not.toMatch(/frame-src|youtube|vimeo/);
    }
    for (const path of [`/checkout/${product.id}`, '/checkout/package/mvp-clarity']) {
      const policy = await policyOf(path);
      expect(directive(policy, 'script-src'), path).toContain('https://js.stripe.com');
      expect(directive(policy, 'connect-src'), path).toBe("'self' https://api.stripe.com");
      expect(directive(policy, 'frame-src').split(' ').toSorted(), path).toEqual(['https://hooks.stripe.com', 'https://js.stripe.com']);
    }
    const withVideo = await policyOf(`/blog/${video.slug}`);
    expect(directive(withVideo, 'frame-src').split(' ').toSorted()).toEqual(['https://player.vimeo.com', 'https://www.youtube-nocookie.com']);
    expect(withVideo).not.toContain('stripe');
    // The admin's editor shows a video as soon as one is added.
    expect(directive(await policyOf('/admin/dashboard'), 'frame-src')).toContain('https://www.youtube-nocookie.com');
  });

  it('are on API responses and redirects', async () => {
    expectBaseline((await fetch(`${server.url}/api/blog-posts`)).headers);
    expectBaseline((await fetch(`${server.url}/api/login`, { redirect: 'manual' })).headers);
    expectBaseline((await fetch(`${server.url}/api/user`)).headers);
  });

  it('are on uploaded files, which can never run as a page', async () => {
    const admin = await clientAs(server, 'admin');
    const { url } = (await uploadFile(admin, PNG_1X1, 'image/png')).body as { url: string };
    const file = await fetch(`${server.url}${url}`);
    expectBaseline(file.headers);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('refuses a write from a foreign Origin', async () => {
    const res = await new Client(server).request('POST', '/api/login', { username: 'someone', password: 'a-password-of-theirs' }, { Origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });
});

describe('secrets', () => {
  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : [p];
    });
  }

  it('never appear in the built client assets', () => {
    const client = files(join(ROOT, 'dist/client')).filter((f) => /\.(js|css|html|json|map)$/.test(f));
    expect(client.length).toBeGreaterThan(0);
    const authSecretFile = join(ROOT, 'data/.auth-secret');
    const secrets = [
      ...Object.values(SECRETS),
      ...(() => {
        try {
          return [readFileSync(authSecretFile, 'utf8').trim()];
        } catch {
          return [];
        }
      })(),
    ];
    for (const f of client) {
      const text = readFileSync(f, 'utf8');
      for (const s of secrets) expect(text.includes(s), `${s} in ${f}`).toBe(false);
      expect(text, f).not.toMatch(/sk_(test|live)_[A-Za-z0-9]{8,}|whsec_[A-Za-z0-9]{8,}/);
    }
  });

  it('never appear in pages served to the browser', async () => {
    for (const path of ['/', '/blog', '/podcast', '/auth', '/checkout/1', '/admin/dashboard']) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      for (const s of Object.values(SECRETS)) expect(html.includes(s), `${s} on ${path}`).toBe(false);
    }
  });
});
