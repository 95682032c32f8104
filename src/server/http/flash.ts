// One-time messages for a form posted without JavaScript: the server keeps what the next page
// should say (success, or the errors and what was typed) under a random token, sets it in an
// HttpOnly cookie and redirects; that page takes the message once. The text lives on the
// server, so no link or cookie can make the site show words it did not write.
import { randomBytes } from 'node:crypto';
import { secureAttribute } from './https.ts';
import type { Flash } from '#shared/flash.ts';

export const FLASH_COOKIE = 'site.flash';
const TTL_MS = 5 * 60_000;
const MAX_KEPT = 10_000;
/** All kept flashes together (characters of their text): a flood of posts cannot grow it. */
const MAX_CHARS = 16 * 1024 * 1024;

export type { Flash };

const kept = new Map<string, { flash: Flash; until: number; size: number }>();
let keptChars = 0;

const sizeOf = (flash: Flash) =>
  flash.message.length + Object.entries(flash.values ?? {}).reduce((n, [k, v]) => n + k.length + v.length, 0) + (flash.issues ?? []).reduce((n, i) => n + i.message.length + 16, 0);

function forget(token: string): void {
  const found = kept.get(token);
  if (!found) return;
  kept.delete(token);
  keptChars -= found.size;
}

/** Keeps a flash and answers the token for its cookie; the oldest go first when too many are kept. */
export function putFlash(flash: Flash): string {
  const now = Date.now();
  const size = sizeOf(flash);
  for (const [token, f] of kept) {
    if (f.until > now && kept.size < MAX_KEPT && keptChars + size <= MAX_CHARS) break;
    forget(token);
  }
  const token = randomBytes(18).toString('base64url');
  kept.set(token, { flash, until: now + TTL_MS, size });
  keptChars += size;
  return token;
}

/** The flash under `token`, once; null when there is none (or it expired). */
export function takeFlash(token: string): Flash | null {
  const found = kept.get(token);
  forget(token);
  return found && found.until > Date.now() ? found.flash : null;
}

/** Secure when the site is served over https (its SITE_URL), as the session cookie is: never sent over plain http. */
const attributes = () => `Path=/; HttpOnly; SameSite=Lax${secureAttribute()}`;
export const flashCookie = (token: string) => `${FLASH_COOKIE}=${token}; ${attributes()}; Max-Age=${TTL_MS / 1000}`;
export const clearFlashCookie = () => `${FLASH_COOKIE}=; ${attributes()}; Max-Age=0`;
