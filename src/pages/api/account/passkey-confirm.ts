import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { confirmForPasskey } from '#server/security/passkeys.ts';
import { PasskeyConfirmSchema } from '#shared/schemas/security.ts';

/** The password (and a current code when two-factor is on) before adding a passkey: this session may add one within five minutes. */
export const POST = endpoint({ auth: 'user', changesContent: false, body: PasskeyConfirmSchema }, async ({ body, user, request }) => {
  await confirmForPasskey(getDb(), user, request.headers, body.password, body.code);
});
