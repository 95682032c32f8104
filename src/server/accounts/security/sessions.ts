// An account's signed-in sessions (Account → Security), and the e-mail a sign-in from a browser
// the account has not used before sends its holder: when, which browser, and a signed link that
// ends that session without signing in (a page with a button: mail scanners open every link).
import { createHash, randomBytes } from 'node:crypto';
import Bowser from 'bowser';
import { and, desc, eq, gt, like, ne } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { knownDevices, sessions, users, verifications } from '#db/schema/auth.ts';
import { signature } from '#server/http/signing.ts';
import { isHttpsUrl } from '#server/http/https.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { layout } from '#server/site/mail.ts';
import { type Rendered } from '#server/mail/layout.ts';
import { realEmail } from './placeholder-email.ts';
import { getPublishedSite } from '#server/site/document.ts';
import type { SessionDto } from '#shared/schemas/security.ts';

/** 'Chrome on macOS' (the browser and system, never the version). */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return 'An unknown browser';
  const { browser, os } = Bowser.parse(userAgent);
  return `${browser.name ?? 'An unknown browser'} on ${os.name ?? 'an unknown system'}`;
}

export function listSessions(db: Db, userId: string, currentId: string | null, now = Date.now()): SessionDto[] {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date(now))))
    .orderBy(desc(sessions.updatedAt))
    .all()
    .map((s) => ({ id: s.id, device: deviceName(s.userAgent), createdAt: s.createdAt, lastActiveAt: s.updatedAt, current: s.id === currentId }));
}

/**
 * Forgets every browser the account trusted to sign in without its second factor ('Trust this
 * device for 30 days'): when sessions are ended, the password changes or two-factor is turned
 * off, a lost or stolen browser must give a code again. Trust is kept per browser, not per
 * session, so ending any one session forgets them all.
 */
export const forgetTrustedDevices = (db: Pick<Db, 'delete'>, userId: string) =>
  db
    .delete(verifications)
    .where(and(like(verifications.identifier, 'trust-device-%'), eq(verifications.value, userId)))
    .run().changes;

/** Ends a session, only one of the account's when `userId` is given (false when there is none by that id). */
export function endSession(db: Db, userId: string | null, sessionId: string): boolean {
  return db.transaction((tx) => {
    const ended = tx
      .delete(sessions)
      .where(and(eq(sessions.id, sessionId), userId === null ? undefined : eq(sessions.userId, userId)))
      .returning({ userId: sessions.userId })
      .get();
    if (ended) forgetTrustedDevices(tx, ended.userId);
    return Boolean(ended);
  });
}

/** Ends every session of the account but `keepId`. */
export function endOtherSessions(db: Db, userId: string, keepId: string): number {
  return db.transaction((tx) => {
    forgetTrustedDevices(tx, userId);
    return tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
      .run().changes;
  });
}

export const endSessionLink = (siteUrl: string, sessionId: string) => `${siteUrl}/account/session-end?s=${encodeURIComponent(sessionId)}&sig=${signature('session-end', sessionId)}`;

function signInAlert(when: Date, device: string, endUrl: string): Rendered {
  return {
    subject: 'New sign-in to your account',
    ...layout({
      heading: 'A new sign-in to your account',
      paragraphs: [
        `Someone signed in to your account on ${when.toUTCString()} from ${device}.`,
        'If this was you, there is nothing to do. If it was not, end that session now and change your password.',
      ],
      action: { label: 'End that session', url: endUrl },
    }),
  };
}

/** The cookie that tells a browser the account signed in from before: random, kept as a hash only. */
export const DEVICE_COOKIE = 'site.device';

/** 400 days, the longest a browser keeps a cookie. */
const DEVICE_COOKIE_MAX_AGE = 400 * 24 * 60 * 60;

/** The device cookie's attributes (Secure when the site is served over https). */
export const deviceCookieOptions = (siteUrl: string) => ({ path: '/', maxAge: DEVICE_COOKIE_MAX_AGE, httpOnly: true, sameSite: 'lax' as const, secure: isHttpsUrl(siteUrl) });

/** The Set-Cookie header that gives a browser its device cookie. */
export function deviceCookieHeader(siteUrl: string, token: string): string {
  return `${DEVICE_COOKIE}=${token}; Path=/; Max-Age=${DEVICE_COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax${isHttpsUrl(siteUrl) ? '; Secure' : ''}`;
}

/** The request's device cookie, when it holds one of the kind this site gives. */
export function deviceCookieOf(headers: Headers): string | null {
  const value = /(?:^|;\s*)site\.device=([A-Za-z0-9_-]{43})(?:;|$)/.exec(headers.get('cookie') ?? '')?.[1];
  return value ?? null;
}

/**
 * Where a sign-in alert for the account goes: the alert address its holder chose (Account →
 * Security), else its own; an admin with neither (the ADMIN_USERNAME account has a placeholder)
 * is the owner, whose mailbox is the site's contact e-mail.
 */
export function alertAddressOf(db: Db, userId: string): string | null {
  const user = db.select({ email: users.email, alertEmail: users.alertEmail, isAdmin: users.isAdmin }).from(users).where(eq(users.id, userId)).get();
  if (!user) return null;
  const own = user.alertEmail || realEmail(user.email);
  if (own) return own;
  return user.isAdmin ? getPublishedSite(db).brand.contactEmail || null : null;
}

/** Sets (or, with '', clears) where the account's sign-in alerts go. */
export function setAlertEmail(db: Db, userId: string, alertEmail: string): void {
  db.update(users)
    .set({ alertEmail: alertEmail || null })
    .where(eq(users.id, userId))
    .run();
}

/**
 * After a completed sign-in: a browser that does not show the account's device cookie (one the
 * account has not signed in from, or one whose cookies were cleared) gets the account's holder
 * an e-mail. The browser's own description is no proof (anyone can send any), the cookie is: a
 * random value set at sign-in, of which only a hash is kept. The account's first browser is only
 * remembered (nothing to compare with). Answers the device value the browser is to keep.
 */
export function noteSignIn(db: Db, siteUrl: string, session: { id: string; userId: string; userAgent?: string | null | undefined; createdAt?: Date }, presented: string | null): string {
  const token = presented ?? randomBytes(32).toString('base64url');
  const key = createHash('sha256').update(token).digest('hex');
  const to = alertAddressOf(db, session.userId);
  db.transaction((tx) => {
    const known = tx.select({ device: knownDevices.device }).from(knownDevices).where(eq(knownDevices.userId, session.userId)).all();
    if (known.some((k) => k.device === key)) return;
    tx.insert(knownDevices).values({ userId: session.userId, device: key }).onConflictDoNothing().run();
    if (known.length === 0 || !to) return;
    enqueueMail(tx, { kind: 'sign-in-alert', to, ...signInAlert(session.createdAt ?? new Date(), deviceName(session.userAgent), endSessionLink(siteUrl, session.id)) });
  });
  return token;
}
