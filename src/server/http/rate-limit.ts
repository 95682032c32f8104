// In-process rate limits (one Node process serves the site): fixed windows per key.
// RATE_LIMITS=off turns them off (test suites that make many requests from one address).
import type { APIContext } from 'astro';
import { env } from '../env.ts';
import { HttpError } from './errors.ts';

interface Bucket {
  count: number;
  resetAt: number;
}

const buckets = new Map<string, Bucket>();
let lastSweep = Date.now();

function sweep(now: number): void {
  if (now - lastSweep < 60_000) return;
  lastSweep = now;
  for (const [k, b] of buckets) if (b.resetAt <= now) buckets.delete(k);
}

const enabled = () => env().RATE_LIMITS !== 'off';

export interface Limit {
  name: string;
  max: number;
  windowMs: number;
}

export const LIMITS = {
  loginFailures: { name: 'login', max: 5, windowMs: 15 * 60_000 },
  loginPerAddress: { name: 'login-ip', max: 50, windowMs: 15 * 60_000 },
  register: { name: 'register', max: 10, windowMs: 60 * 60_000 },
  comment: { name: 'comment', max: 10, windowMs: 10 * 60_000 },
  subscribe: { name: 'subscribe', max: 10, windowMs: 10 * 60_000 },
} satisfies Record<string, Limit>;

/** The caller's address: the socket's, or X-Forwarded-For's first hop when TRUST_PROXY=true. */
export function clientKey(context: APIContext): string {
  if (env().TRUST_PROXY) {
    const fwd = context.request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (fwd) return fwd;
  }
  try {
    return context.clientAddress;
  } catch {
    return 'unknown';
  }
}

function tooMany(bucket: Bucket, now: number): HttpError {
  const retry = Math.max(1, Math.ceil((bucket.resetAt - now) / 1000));
  return new HttpError(429, 'Too many attempts. Please wait a few minutes and try again.', undefined, { 'Retry-After': String(retry) });
}

/** Counts one attempt; throws 429 once `max` attempts were made in the window. */
export function hit(limit: Limit, key: string): void {
  if (!enabled()) return;
  const now = Date.now();
  sweep(now);
  const id = `${limit.name}:${key}`;
  let b = buckets.get(id);
  if (!b || b.resetAt <= now) {
    b = { count: 0, resetAt: now + limit.windowMs };
    buckets.set(id, b);
  }
  if (b.count >= limit.max) throw tooMany(b, now);
  b.count += 1;
}

/** Throws 429 when the key is already at its limit, without counting. */
export function check(limit: Limit, key: string): void {
  if (!enabled()) return;
  const now = Date.now();
  const b = buckets.get(`${limit.name}:${key}`);
  if (b && b.resetAt > now && b.count >= limit.max) throw tooMany(b, now);
}

export function reset(limit: Limit, key: string): void {
  buckets.delete(`${limit.name}:${key}`);
}
