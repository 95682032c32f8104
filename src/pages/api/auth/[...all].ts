import { getAuth } from '#server/accounts/auth.ts';
import { getDb } from '#server/db.ts';
import { readBody } from '#server/http/body.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { badRequest, notFound } from '#server/http/errors.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { auditAccountChange } from '#server/accounts/security/audit.ts';
import { assertMayAddPasskey, passkeyAdded } from '#server/accounts/security/passkeys.ts';
import { forgetTrustedDevices } from '#server/accounts/security/sessions.ts';
import { assertMayTryLogin, recordLoginFailure } from '#server/accounts/login-throttle.ts';

/**
 * better-auth's own routes that the site offers, and nothing else (its sign-up, e-mail and
 * profile routes would go around the site's own rules): two-factor set-up and sign-in,
 * passkeys, and the account's sessions. Each admin change here is written to the audit log.
 * No answer carries a session token (HttpOnly cookies carry them, never script): the sign-in
 * routes and the list answer sessions, and adding a passkey can be asked to make one; a session
 * is ended by its id in Account → Security.
 */
const ROUTES: Record<string, { anonymous?: true; password?: true; confirmed?: true; audit?: string }> = {
  '/two-factor/enable': { password: true, audit: 'account.two-factor.set-up' },
  '/two-factor/disable': { password: true, audit: 'account.two-factor.turn-off' },
  '/two-factor/verify-totp': { anonymous: true },
  '/two-factor/verify-backup-code': { anonymous: true },
  '/two-factor/generate-backup-codes': { password: true, audit: 'account.two-factor.new-backup-codes' },
  '/passkey/generate-register-options': { confirmed: true },
  '/passkey/verify-registration': { confirmed: true, audit: 'account.passkey.add' },
  '/passkey/generate-authenticate-options': { anonymous: true },
  '/passkey/verify-authentication': { anonymous: true },
  '/passkey/list-user-passkeys': {},
  '/passkey/update-passkey': { audit: 'account.passkey.rename' },
  '/passkey/delete-passkey': { audit: 'account.passkey.remove' },
  '/list-sessions': {},
  '/revoke-session': { audit: 'account.sessions.end' },
  '/revoke-other-sessions': { audit: 'account.sessions.end-others' },
};

/** Calls after which no browser is trusted to skip the second factor any more (better-auth forgets only the caller's). */
const FORGET_TRUSTED = new Set(['/two-factor/disable', '/revoke-session', '/revoke-other-sessions']);

const PASSKEY_NOT_ADDED = 'This passkey could not be added. Please try again.';

/** Passkey options and answers, codes: a few KB at most. */
const AUTH_BODY_LIMIT = 64 * 1024;

export const ALL = endpoint({ auth: 'public', changesContent: false }, async ({ request, user, context }) => {
  const path = context.url.pathname.replace(/^\/api\/auth/, '');
  const route = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
  if (!route) throw notFound('Not found');
  // Anonymous calls that cost us (a sign-in's second step, a passkey challenge) are limited per address.
  if (route.anonymous && !user) hit(LIMITS.loginPerAddress, clientKey(context));
  // A route that checks the password counts a wrong one against the account's sign-in limit, so
  // a session in other hands cannot try passwords without end.
  if (route.password && user) assertMayTryLogin(user.username);
  // Adding a passkey takes the password (and a code) first: POST /api/account/passkey-confirm.
  if (route.confirmed && user) assertMayAddPasskey(user.sessionId);
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await readBody(request, AUTH_BODY_LIMIT);
  const answer = await getAuth().handler(new Request(request.url, { method: request.method, headers: request.headers, body: body ?? null }));
  if (route.password && user && (await isWrongPassword(answer))) recordLoginFailure(user.username);
  if (route.audit && answer.ok && user) auditAccountChange(getDb(), user, route.audit);
  if (FORGET_TRUSTED.has(path) && answer.ok && user) forgetTrustedDevices(getDb(), user.id);
  if (path === '/passkey/verify-registration' && answer.ok && user) passkeyAdded(user.sessionId);
  // The plugin answers 500 to a registration it cannot verify, malformed ones included.
  if (path === '/passkey/verify-registration' && answer.status === 500) throw badRequest(PASSKEY_NOT_ADDED);
  return withoutToken(answer);
});

/** Whether better-auth refused the request's password. */
async function isWrongPassword(answer: Response): Promise<boolean> {
  if (answer.status !== 400 && answer.status !== 401) return false;
  const error = (await answer
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown } | null;
  return error?.code === 'INVALID_PASSWORD';
}

/** `value` with every `token` field left out, at any depth. */
const stripTokens = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(stripTokens)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (k === 'token' ? [] : [[k, stripTokens(v)]])))
      : value;

/** An answer without session tokens. */
async function withoutToken(answer: Response): Promise<Response> {
  if (!answer.ok || !(answer.headers.get('content-type') ?? '').includes('application/json')) return answer;
  const json = stripTokens(await answer.json());
  const headers = new Headers(answer.headers);
  headers.delete('content-length');
  headers.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify(json), { status: answer.status, headers });
}
