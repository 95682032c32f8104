import * as z from 'zod';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { recordAudit } from '#server/accounts/security/audit.ts';
import { conflict, notFound } from '#server/http/errors.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { eraseAddress } from '#server/privacy/erase.ts';
import { markDone, requestByLink } from '#server/privacy/requests.ts';

const PERSON = { id: null, name: 'privacy link' };
const TokenQuery = z.object({ t: z.string().max(800).optional() });

/** The erasure link's confirm button: erases what is held about the address. A tampered or expired link changes nothing (404). */
export const POST = endpoint({ auth: 'public', query: TokenQuery, form: { success: () => 'Your data is erased.' } }, ({ query, context }) => {
  hit(LIMITS.privacyLink, clientKey(context));
  const db = getDb();
  const request = requestByLink(db, 'erasure', query.t);
  if (!request) throw notFound('This link is not valid or has expired. Ask again at /privacy/request.');
  if (request.state === 'done') throw conflict('Your data was already erased.');
  const done = eraseAddress(db, request.email);
  markDone(db, request.id);
  // Who asked is known only by the link: the row names the request, never the address.
  recordAudit(db, PERSON, { action: 'privacy.erase', targetId: String(request.id), summary: "Erased by the person's own signed link" });
  return { id: request.id, status: 'done', ...done };
});
