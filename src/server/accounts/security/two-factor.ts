// What better-auth's twoFactor plugin leaves to us, run as hooks around its endpoints:
// - wrong codes count against the account's sign-in limit (the same one as wrong passwords:
//   five, then a growing wait), whether they come during sign-in or while setting up;
// - a TOTP code is accepted once: the 30-second step of each accepted code is kept, and a code
//   of that step or an earlier one is refused;
// - turning two-factor off, and making new backup codes, take a current code as well as the
//   password (a password alone must not be enough to undo or go around the second factor);
// - turning it on ends the account's other sessions: they were signed in without a code.
import { createOTP } from '@better-auth/utils/otp';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { symmetricDecrypt } from 'better-auth/crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { twoFactors, users } from '#db/schema/auth.ts';
import { HttpError } from '#server/http/errors.ts';
import { assertMayTryLogin, clearLoginFailures, recordLoginFailure } from '#server/accounts/login-throttle.ts';
import { recordAudit } from './audit.ts';
import { endOtherSessions } from './sessions.ts';

export const TOTP_PERIOD = 30;
export const CODE_USED = 'That code was already used. Enter the next one from your app.';
export const CODE_NEEDED = 'Enter a current code from your authenticator app.';

const VERIFY_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);
/** Changes to a second factor that is on, which take a current code from the app. */
const CODE_PATHS = new Set(['/two-factor/disable', '/two-factor/generate-backup-codes']);

/** Accounts confirming their set-up (a first code sent from a signed-in session) in a request under way. */
const enrolling = new Set<string>();

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The account a code is for: the signed-in one, or the one whose password step set the two-factor cookie. */
async function challengedUser(ctx: HookContext): Promise<{ id: string; signingIn: boolean } | null> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return { id: session.user.id, signingIn: false };
  const cookie = ctx.context.createAuthCookie('two_factor');
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return null;
  const verification = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return verification ? { id: verification.value, signingIn: true } : null;
}

const usernameOf = (db: Db, userId: string) => db.select({ username: users.username }).from(users).where(eq(users.id, userId)).get()?.username ?? userId;

/** The key the plugin encrypts TOTP secrets with (better-auth's secret). */
type SecretKey = Parameters<typeof symmetricDecrypt>[0]['key'];

/** The step of the current TOTP window (one step either side, as the plugin accepts) that `code` is, or null. */
async function stepOf(key: SecretKey, db: Db, userId: string, code: unknown): Promise<number | null> {
  if (typeof code !== 'string' || !/^\d{6}$/.test(code)) return null;
  const row = db.select({ secret: twoFactors.secret }).from(twoFactors).where(eq(twoFactors.userId, userId)).get();
  if (!row) return null;
  const secret = await symmetricDecrypt({ key, data: row.secret });
  const otp = createOTP(secret, { period: TOTP_PERIOD, digits: 6 });
  const now = Math.floor(Date.now() / 1000 / TOTP_PERIOD);
  for (const step of [now, now - 1, now + 1]) if ((await otp.hotp(step)) === code) return step;
  return null;
}

/**
 * Claims of a code's step made before the plugin checked the rest of the request, by account:
 * a request that then fails gives its step back, so a right code sent with a wrong password (or
 * while the account waits) is not used up.
 */
const pendingClaims = new Map<string, { step: number; previous: number | null }>();

/** Takes `step` as used, unless it or a later one already was (false then). One statement: two requests with the same code cannot both win. */
function claimStep(db: Db, userId: string, step: number): boolean {
  const previous = db.select({ last: twoFactors.lastTotpStep }).from(twoFactors).where(eq(twoFactors.userId, userId)).get()?.last ?? null;
  const claimed = db
    .update(twoFactors)
    .set({ lastTotpStep: step })
    .where(and(eq(twoFactors.userId, userId), or(isNull(twoFactors.lastTotpStep), lt(twoFactors.lastTotpStep, step))))
    .run();
  if (claimed.changes === 0) return false;
  pendingClaims.set(userId, { step, previous });
  return true;
}

/** After the request: a claim kept when it succeeded, given back when it failed. */
function settleClaim(db: Db, userId: string, succeeded: boolean): void {
  const claim = pendingClaims.get(userId);
  if (!claim) return;
  pendingClaims.delete(userId);
  if (succeeded) return;
  db.update(twoFactors)
    .set({ lastTotpStep: claim.previous })
    .where(and(eq(twoFactors.userId, userId), eq(twoFactors.lastTotpStep, claim.step)))
    .run();
}

/** Takes a current code of the account (once, as at sign-in) for a change outside better-auth's routes: 'ok', or why not. */
export async function takeCode(db: Db, key: SecretKey, userId: string, code: unknown): Promise<'ok' | 'needed' | 'used'> {
  const step = await stepOf(key, db, userId, code);
  if (step === null) return 'needed';
  if (!claimStep(db, userId, step)) return 'used';
  pendingClaims.delete(userId);
  return 'ok';
}

function tooMany(err: HttpError): APIError {
  return new APIError('TOO_MANY_REQUESTS', { message: err.message }, err.headers);
}

/** Before the plugin's own handlers. */
export function twoFactorBefore(db: Db) {
  return createAuthMiddleware(async (ctx) => {
    if (VERIFY_PATHS.has(ctx.path)) {
      const who = await challengedUser(ctx);
      if (!who) return;
      const username = usernameOf(db, who.id);
      try {
        assertMayTryLogin(username);
      } catch (err) {
        if (err instanceof HttpError) throw tooMany(err);
        throw err;
      }
      if (ctx.path === '/two-factor/verify-totp') {
        if (!who.signingIn && !db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, who.id)).get()?.on) enrolling.add(who.id);
        const body = ctx.body as { code?: unknown } | undefined;
        const step = await stepOf(ctx.context.secretConfig, db, who.id, body?.code);
        if (step !== null && !claimStep(db, who.id, step)) {
          recordLoginFailure(username);
          throw new APIError('UNAUTHORIZED', { message: CODE_USED });
        }
      }
      return;
    }
    if (CODE_PATHS.has(ctx.path)) {
      const session = await getSessionFromCtx(ctx).catch(() => null);
      if (!session) return;
      const code = (ctx.body as { code?: unknown } | undefined)?.code;
      const step = await stepOf(ctx.context.secretConfig, db, session.user.id, code);
      if (step === null || !claimStep(db, session.user.id, step)) {
        recordLoginFailure(usernameOf(db, session.user.id));
        throw new APIError('BAD_REQUEST', { message: step === null ? CODE_NEEDED : CODE_USED });
      }
    }
  });
}

/** After the plugin's handlers: a wrong code counts as a failed sign-in; a right one clears them; a code's claim is kept only when the request succeeded. */
export function twoFactorAfter(db: Db) {
  return createAuthMiddleware(async (ctx) => {
    if (!VERIFY_PATHS.has(ctx.path) && !CODE_PATHS.has(ctx.path)) return;
    const returned = ctx.context.returned;
    const failed = isAPIError(returned);
    const userId = ctx.context.newSession?.user.id ?? (await challengedUser(ctx))?.id;
    if (!userId) return;
    settleClaim(db, userId, !failed);
    if (CODE_PATHS.has(ctx.path)) return;
    if (enrolling.delete(userId) && !failed && ctx.context.newSession) {
      // Two-factor is on from now: sessions signed in without a code end, but this one.
      endOtherSessions(db, userId, ctx.context.newSession.session.id);
      // Set-up is logged when it starts; an admin's second factor being on is logged here, when a code confirms it.
      const who = db.select({ name: users.displayUsername, username: users.username, isAdmin: users.isAdmin }).from(users).where(eq(users.id, userId)).get();
      if (who?.isAdmin) recordAudit(db, { id: userId, name: who.name || who.username || userId }, { action: 'account.two-factor.turn-on', targetId: userId });
    }
    const username = usernameOf(db, userId);
    if (isAPIError(returned)) {
      if (returned.statusCode === 401 || returned.statusCode === 400) recordLoginFailure(username);
    } else clearLoginFailures(username);
  });
}
