import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '#server/env.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'env-'));

describe('configuration', () => {
  it('has working defaults', () => {
    const db = join(dir(), 'site.db');
    const env = parseEnv({ DATABASE_URL: db });
    expect(env.PORT).toBe(4321);
    expect(env.SITE_URL).toBe('http://localhost:4321');
    expect(env.SEED_DEMO).toBe(true);
    expect(env.BETTER_AUTH_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it('generates the auth secret once and keeps it beside the database', () => {
    const db = join(dir(), 'site.db');
    const first = parseEnv({ DATABASE_URL: db }).BETTER_AUTH_SECRET;
    expect(parseEnv({ DATABASE_URL: db }).BETTER_AUTH_SECRET).toBe(first);
    expect(readFileSync(join(db, '..', '.auth-secret'), 'utf8')).toBe(first);
  });

  it('stops with a message naming every bad variable', () => {
    expect(() => parseEnv({ PORT: 'eighty', SITE_URL: 'not a url', SEED_DEMO: 'maybe', DATABASE_URL: join(dir(), 'x.db') })).toThrow(/PORT[\s\S]*SITE_URL[\s\S]*SEED_DEMO/);
  });

  it('wants ADMIN_USERNAME and ADMIN_PASSWORD together', () => {
    expect(() => parseEnv({ ADMIN_USERNAME: 'root', DATABASE_URL: join(dir(), 'x.db') })).toThrow(/ADMIN_USERNAME and ADMIN_PASSWORD must be set together/);
  });

  it('reads SEED_DEMO=false and treats empty values as unset', () => {
    const env = parseEnv({ SEED_DEMO: 'false', STRIPE_SECRET_KEY: '', DATABASE_URL: join(dir(), 'x.db') });
    expect(env.SEED_DEMO).toBe(false);
    expect(env.STRIPE_SECRET_KEY).toBeUndefined();
  });

  it("takes an UploadThing token only in the dashboard's format", () => {
    const db = join(dir(), 'x.db');
    const token = Buffer.from(JSON.stringify({ apiKey: 'sk_live_abc', appId: 'app1', regions: ['sea1'] })).toString('base64');
    expect(parseEnv({ UPLOADTHING_TOKEN: token, DATABASE_URL: db }).UPLOADTHING_TOKEN).toBe(token);
    for (const bad of ['sk_live_abc', Buffer.from('{"apiKey":"sk_1","appId":"a","regions":[]}').toString('base64')]) {
      expect(() => parseEnv({ UPLOADTHING_TOKEN: bad, DATABASE_URL: db })).toThrow(/UPLOADTHING_TOKEN must be the token from the UploadThing dashboard/);
    }
  });
});

describe('ADMIN_USERNAME', () => {
  const withName = (name: string) => () => parseEnv({ DATABASE_URL: join(dir(), 'site.db'), ADMIN_USERNAME: name, ADMIN_PASSWORD: 'correct-horse-battery-staple' });

  it('follows the sign-up rules, so the account can be made', () => {
    expect(withName('ab')).toThrow(/ADMIN_USERNAME: Username must be at least 3 characters/);
    expect(withName('the owner')).toThrow(/ADMIN_USERNAME: Username may contain only letters, numbers, dots, dashes and underscores/);
    expect(withName('x'.repeat(51))).toThrow(/ADMIN_USERNAME: Username must be at most 50 characters/);
    expect(withName('the.owner')().ADMIN_USERNAME).toBe('the.owner');
  });
});

describe('ADMIN_PASSWORD', () => {
  const withPassword = (password: string) => () => parseEnv({ DATABASE_URL: join(dir(), 'site.db'), ADMIN_USERNAME: 'owner', ADMIN_PASSWORD: password });

  it('needs at least 12 characters', () => {
    expect(withPassword('short-pass1')).toThrow(/ADMIN_PASSWORD: Password must be at least 12 characters/);
  });

  it('may not be one of the most common passwords, whatever its length', () => {
    expect(withPassword('qwerty123456')).toThrow(/ADMIN_PASSWORD: This password is too common/);
    expect(withPassword('1qaz2wsx3edc')).toThrow(/This password is too common/);
  });

  it('accepts a long, uncommon one', () => {
    expect(withPassword('correct-horse-battery-staple')().ADMIN_PASSWORD).toBe('correct-horse-battery-staple');
  });
});
