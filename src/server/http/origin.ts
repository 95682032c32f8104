// CSRF defence in depth for every write, whether Astro's router or scripts/serve.ts answers it.
import { env } from '#server/env.ts';
import { forbidden } from './errors.ts';
import type { HeaderReader } from './node-request.ts';

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let siteOrigin: string | undefined;

/** Rejects state-changing requests whose Origin is another site. */
export function checkOrigin(method: string, headers: HeaderReader, ownOrigin: string): void {
  if (!WRITE_METHODS.has(method)) return;
  const origin = headers.get('origin');
  if (origin) {
    if (origin !== ownOrigin && origin !== (siteOrigin ??= new URL(env().SITE_URL).origin)) {
      throw forbidden('Cross-site request refused');
    }
    return;
  }
  // No Origin: a browser would have sent one for a cross-site write; refuse if it says cross-site.
  if (headers.get('sec-fetch-site') === 'cross-site') throw forbidden('Cross-site request refused');
}
