// An account's signed-in sessions (Account → Security), and the e-mail a sign-in from a browser
// the account has not used before sends its holder: when, which browser, and a signed link that
// ends that session without signing in (a page with a button: mail scanners open every link).
import { createHash } from 'node:crypto';
import Bowser from 'bowser';
import { and, desc, eq, gt, like, ne } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { knownDevices, sessions, verifications } from '#db/schema/auth.ts';
import { signature } from '#server/http/signing.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { layout, type Rendered } from '#server/mail/templates.ts';
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

/**
 * After a completed sign-in: a browser the account has not signed in from before gets its
 * holder an e-mail. The account's first browser is only remembered (nothing to compare with).
 */
export function noteSignIn(db: Db, siteUrl: string, session: { id: string; userId: string; userAgent?: string | null | undefined; createdAt?: Date }, email: string | null): void {
  const device = deviceName(session.userAgent);
  const key = createHash('sha256').update(`${session.userId}|${device}`).digest('hex');
  db.transaction((tx) => {
    const known = tx.select({ device: knownDevices.device }).from(knownDevices).where(eq(knownDevices.userId, session.userId)).all();
    if (known.some((k) => k.device === key)) return;
    tx.insert(knownDevices).values({ userId: session.userId, device: key }).onConflictDoNothing().run();
    if (known.length === 0 || !email) return;
    enqueueMail(tx, { kind: 'sign-in-alert', to: email, ...signInAlert(session.createdAt ?? new Date(), device, endSessionLink(siteUrl, session.id)) });
  });
}
