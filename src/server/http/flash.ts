// One-time messages for a form posted without JavaScript: the server keeps what the next page
// should say (success, or the errors and what was typed) under a random token, sets it in an
// HttpOnly cookie and redirects; that page takes the message once. The text lives on the
// server, so no link or cookie can make the site show words it did not write.
import { randomBytes } from 'node:crypto';
import type { Flash } from '#shared/flash.ts';

export const FLASH_COOKIE = 'site.flash';
const TTL_MS = 5 * 60_000;
const MAX_KEPT = 10_000;

export type { Flash };

const kept = new Map<string, { flash: Flash; until: number }>();

/** Keeps a flash and answers the token for its cookie. */
export function putFlash(flash: Flash): string {
  const now = Date.now();
  for (const [token, f] of kept) {
    if (f.until > now && kept.size < MAX_KEPT) break;
    kept.delete(token);
  }
  const token = randomBytes(18).toString('base64url');
  kept.set(token, { flash, until: now + TTL_MS });
  return token;
}

/** The flash under `token`, once; null when there is none (or it expired). */
export function takeFlash(token: string): Flash | null {
  const found = kept.get(token);
  kept.delete(token);
  return found && found.until > Date.now() ? found.flash : null;
}

export const flashCookie = (token: string) => `${FLASH_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${TTL_MS / 1000}`;
export const clearFlashCookie = `${FLASH_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
