import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { confirmForPasskey } from '#server/accounts/security/passkeys.ts';
import { PasskeyConfirmSchema } from '#shared/schemas/security.ts';

/** The password (and a current code when two-factor is on) before adding a passkey: this session may add one within five minutes. */
export const POST = endpoint({ auth: 'user', changesContent: false, body: PasskeyConfirmSchema }, async ({ body, user, request }) => {
  await confirmForPasskey(getDb(), user, request.headers, body.password, body.code);
});
