import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { forbidden } from '#server/http/errors.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { validSignature } from '#server/http/signing.ts';
import { endSession } from '#server/accounts/security/sessions.ts';
import { SessionEndSchema } from '#shared/schemas/security.ts';

const form = { success: () => 'That session has ended. If it was not you, change your password now.' };

/** The button behind a sign-in alert's link: ends the session it names (signed, so only the alert's link can). */
export const POST = endpoint({ auth: 'public', changesContent: false, body: SessionEndSchema, form }, ({ body, context }) => {
  hit(LIMITS.sessionEnd, clientKey(context));
  if (!validSignature('session-end', body.s, body.sig)) throw forbidden('This link is not valid.');
  // The signature names the session: whose it is was settled when the alert was sent.
  endSession(getDb(), null, body.s);
  return { ended: true };
});
