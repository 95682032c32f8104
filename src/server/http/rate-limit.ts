// In-process rate limits (one Node process serves the site): fixed windows per key.
// RATE_LIMITS=off turns them off (test suites that make many requests from one address).
// One table per process: the built app and scripts/serve.ts (which answers page-view beacons
// before Astro's router) load their own copies of this module and share it.
import { isIP } from 'node:net';
import type { APIContext } from 'astro';
import { env } from '#server/env.ts';
import { HttpError } from './errors.ts';

interface Bucket {
  count: number;
  resetAt: number;
}

const shared = { buckets: new Map<string, Bucket>(), lastSweep: Date.now() };
const buckets = shared.buckets;

function sweep(now: number): void {
  if (now - shared.lastSweep < 60_000) return;
  shared.lastSweep = now;
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
  // Each one is a call to Stripe (and an order row): a real buyer needs a handful.
  passwordReset: { name: 'password-reset', max: 10, windowMs: 15 * 60_000 },
  paymentIntent: { name: 'payment-intent', max: 20, windowMs: 10 * 60_000 },
  paymentStatus: { name: 'payment-status', max: 120, windowMs: 10 * 60_000 },
  // Per order: asking an expired download link for new links (each asks sends an e-mail at most every 10 minutes).
  freshLinks: { name: 'fresh-links', max: 5, windowMs: 60 * 60_000 },
  // Booking: a person books a few times at most; slots are asked as they page through months.
  booking: { name: 'booking', max: 10, windowMs: 10 * 60_000 },
  bookingSlots: { name: 'booking-slots', max: 300, windowMs: 10 * 60_000 },
  bookingManage: { name: 'booking-manage', max: 20, windowMs: 10 * 60_000 },
  // Packages: each checkout is Stripe objects made; a coupon check is a guess at a code; a request is an e-mail to the owner.
  packageCheckout: { name: 'package-checkout', max: 20, windowMs: 10 * 60_000 },
  couponCheck: { name: 'coupon-check', max: 30, windowMs: 10 * 60_000 },
  packageRequest: { name: 'package-request', max: 5, windowMs: 60 * 60_000 },
  billingPortal: { name: 'billing-portal', max: 20, windowMs: 10 * 60_000 },
  // Page views from one address: a person reading fast, or an office behind one address.
  beacon: { name: 'beacon', max: 600, windowMs: 10 * 60_000 },
  // Podcast downloads counted from one address (a household or an office of listeners).
  podcastDownload: { name: 'podcast-download', max: 300, windowMs: 10 * 60_000 },
  // A sign-in alert's signed link that ends a session: a person clicks it once or twice.
  sessionEnd: { name: 'session-end', max: 20, windowMs: 10 * 60_000 },
  // Opens and clicks of one newsletter issue counted from one address (a reader opening it again
  // and again, or an office of readers); beyond, the image or link still works, uncounted.
  issueCount: { name: 'issue-count', max: 30, windowMs: 10 * 60_000 },
  // Privacy requests: each may be an e-mail; a person asks once or twice. Per address too (from
  // anywhere), so nobody floods another's inbox; the signed links a person opens a few times.
  privacyRequest: { name: 'privacy-request', max: 10, windowMs: 60 * 60_000 },
  privacyPerAddress: { name: 'privacy-address', max: 3, windowMs: 60 * 60_000 },
  privacyLink: { name: 'privacy-link', max: 30, windowMs: 10 * 60_000 },
  // Per admin: test sends of a newsletter issue.
  broadcastTest: { name: 'broadcast-test', max: 10, windowMs: 60 * 60_000 },
} satisfies Record<string, Limit>;

/**
 * The caller's address: the socket's, or behind TRUST_PROXY=N proxies the address the
 * outermost trusted proxy saw. Each proxy appends the address it received the request from to
 * X-Forwarded-For, so that one is the N-th from the right; everything left of it was written
 * by the client and proves nothing. The whole address, for what needs one (a country lookup);
 * whatever is counted or limited per address is keyed by clientKey.
 */
export function requestAddress(context: Pick<APIContext, 'clientAddress' | 'request'>): string {
  let socket: string | undefined;
  try {
    socket = context.clientAddress;
  } catch {
    socket = undefined;
  }
  return clientAddress(context.request.headers.get('x-forwarded-for'), socket);
}

/** The key a request is counted and limited under, per address: addressKey of its address. */
export const clientKey = (context: Pick<APIContext, 'clientAddress' | 'request'>): string => addressKey(requestAddress(context));

/** requestAddress for a request read before Astro (its X-Forwarded-For header and its socket's address). */
export function clientAddress(forwardedFor: string | null | undefined, socketAddress: string | undefined): string {
  const hops = env().TRUST_PROXY;
  if (hops > 0) {
    const chain = (forwardedFor ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    const client = chain.length >= hops ? chain[chain.length - hops] : chain[0];
    if (client) return unmapped(client);
  }
  return socketAddress ? unmapped(socketAddress) : 'unknown';
}

/** An IPv4 address written as IPv6 (`::ffff:192.0.2.1`, what a dual-stack socket reports) as the IPv4 address it is. */
function unmapped(address: string): string {
  if (!address.includes(':')) return address;
  const groups = ipv6Groups(address);
  if (!groups || groups.slice(0, 5).some((g) => g !== 0) || groups[5] !== 0xffff) return address;
  return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
}

/** The eight 16-bit groups of an IPv6 address (a zone such as `%eth0` left out), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const bare = address.replace(/%.*$/, '');
  if (isIP(bare) !== 6) return null;
  const [head = '', tail] = bare.split('::');
  const parse = (part: string) => {
    if (!part) return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (g.includes('.')) {
        const [a, b, c, d] = g.split('.').map(Number);
        out.push((a! << 8) | b!, (c! << 8) | d!);
      } else out.push(parseInt(g, 16));
    }
    return out;
  };
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/**
 * What one client is counted and limited under: an IPv4 address as it is (one written as IPv6
 * too); an IPv6 address by its /64, since one home or phone is given a whole /64 and picks new
 * addresses in it at will. Anything else (a proxy's odd entry) as it was given.
 */
export function addressKey(address: string): string {
  const plain = unmapped(address);
  if (!plain.includes(':')) return plain;
  const groups = ipv6Groups(plain);
  return groups
    ? `${groups
        .slice(0, 4)
        .map((g) => g.toString(16))
        .join(':')}::/64`
    : plain;
}

function tooMany(bucket: Bucket, now: number): HttpError {
  const retry = Math.max(1, Math.ceil((bucket.resetAt - now) / 1000));
  return new HttpError(429, 'Too many attempts. Please wait a few minutes and try again.', undefined, { 'Retry-After': String(retry) });
}

/** Counts one attempt; answers false (counting nothing) once `max` attempts were made in the window. */
export function withinLimit(limit: Limit, key: string): boolean {
  try {
    hit(limit, key);
    return true;
  } catch (err) {
    if (err instanceof HttpError && err.status === 429) return false;
    throw err;
  }
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
