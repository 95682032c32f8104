import { getDb } from '#server/db.ts';
import { screenBots } from '#server/http/bots.ts';
import { endpoint, json } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { askPrivacy } from '#server/privacy/requests.ts';
import { PRIVACY_REQUEST_SENT, PrivacyRequestSchema } from '#shared/schemas/privacy.ts';

/** A person asks for a copy or the erasure of their data: 202 whatever the address (nothing says whether it is known). */
export const POST = endpoint({ auth: 'public', changesContent: false, body: PrivacyRequestSchema, form: { success: () => PRIVACY_REQUEST_SENT } }, ({ body, context }) => {
  hit(LIMITS.privacyRequest, clientKey(context));
  // A robot is answered like a person, and nothing is stored or sent.
  if (screenBots(body) === 'ok') askPrivacy(getDb(), body.kind, body.email);
  return json({ message: PRIVACY_REQUEST_SENT }, 202);
});
