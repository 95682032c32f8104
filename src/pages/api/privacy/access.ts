import * as z from 'zod';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { recordAudit } from '#server/accounts/security/audit.ts';
import { notFound } from '#server/http/errors.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { personalData } from '#server/privacy/personal-data.ts';
import { markDone, requestByLink } from '#server/privacy/requests.ts';

const PERSON = { id: null, name: 'privacy link' };
const TokenQuery = z.object({ t: z.string().max(800).optional() });

/** The access link's download: everything held about the address, as JSON. A tampered or expired link is a 404 that shows nothing. */
export const GET = endpoint({ auth: 'public', query: TokenQuery }, ({ query, context }) => {
  hit(LIMITS.privacyLink, clientKey(context));
  const db = getDb();
  const request = requestByLink(db, 'access', query.t);
  if (!request) throw notFound('This link is not valid or has expired. Ask again at /privacy/request.');
  const data = personalData(db, request.email);
  markDone(db, request.id);
  // Who asked is known only by the link: the row names the request, never the address.
  recordAudit(db, PERSON, { action: 'privacy.export', targetId: String(request.id), summary: "Downloaded by the person's own signed link" });
  return new Response(JSON.stringify(data, null, 2), {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': 'attachment; filename="my-data.json"', 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' },
  });
});
