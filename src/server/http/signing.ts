// Links that act or show something without a login carry a signature: an HMAC of what they name,
// keyed by the server's secret and bound to one purpose, so no link can be made or reused for another.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { env } from '#server/env.ts';

export type SignedPurpose = 'issue-view' | 'issue-click' | 'booking-manage' | 'session-end' | 'privacy-link' | 'address-hash';

export const signature = (purpose: SignedPurpose, value: string) => createHmac('sha256', env().BETTER_AUTH_SECRET).update(`${purpose}:${value}`).digest('base64url').slice(0, 22);

export function validSignature(purpose: SignedPurpose, value: string, given: string | null | undefined): boolean {
  return Boolean(given) && sameSecret(signature(purpose, value), given!);
}

/** Whether two secrets are the same, in a time that does not tell how much of them matched. */
export function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
