// E-mails to the owner about things waiting for them (a comment, a new account) and to a user
// whose account was approved. Each kind can be switched off in Admin → Settings or for good by
// its NOTIFY_* variable; all are on by default.
// They are written to the outbox inside the caller's transaction.
import { and, eq, not, like } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { users } from '#db/schema/auth.ts';
import { PLACEHOLDER_EMAIL_DOMAIN } from './auth.ts';
import { env } from '#server/env.ts';
import { getSettings } from '#server/site/settings.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { accountApproved, accountAwaitingApproval, commentAwaitingApproval, ownerNotice } from './mail.ts';
import { publishedSite } from '#server/site/current.ts';

type Tx = Pick<Db, 'insert' | 'select'>;

/** The site's contact e-mail (Admin → Site), else every admin with a real e-mail address. */
export function ownerAddresses(tx: Tx): string[] {
  const contact = publishedSite().brand.contactEmail;
  if (contact) return [contact];
  return tx
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.isAdmin, true), not(like(users.email, `%@${PLACEHOLDER_EMAIL_DOMAIN}`))))
    .all()
    .map((u) => u.email);
}

/** A comment waits for approval: its text and a link to Admin → Comments. */
export function notifyCommentAwaitingApproval(tx: Tx, comment: { postTitle: string; authorName: string; content: string }): void {
  if (!getSettings(tx).notifyComments) return;
  const mail = commentAwaitingApproval({ ...comment, moderateUrl: `${env().SITE_URL}/admin/comments` });
  for (const to of ownerAddresses(tx)) enqueueMail(tx, { kind: 'comment-awaiting-approval', to, ...mail });
}

/** A new account waits for approval: a link to Admin → Users. */
export function notifyAccountAwaitingApproval(tx: Tx, username: string): void {
  if (!getSettings(tx).notifyRegistrations) return;
  const mail = accountAwaitingApproval({ username, usersUrl: `${env().SITE_URL}/admin/users` });
  for (const to of ownerAddresses(tx)) enqueueMail(tx, { kind: 'account-awaiting-approval', to, ...mail });
}

/** The user's account was approved (when they gave an e-mail). */
export function notifyAccountApproved(tx: Tx, user: { email: string | null; name: string }): void {
  if (!user.email || !getSettings(tx).notifyApprovals) return;
  enqueueMail(tx, { kind: 'account-approved', to: user.email, ...accountApproved({ name: user.name, loginUrl: `${env().SITE_URL}/auth` }) });
}

/** Something the owner must act on (a newsletter send that paused itself, a client's failed payment), always sent; the button opens `path` (Admin → Newsletter by default). */
export function notifyOwner(tx: Tx, notice: { kind: string; subject: string; heading: string; text: string; path?: string }): void {
  const mail = ownerNotice({ ...notice, adminUrl: `${env().SITE_URL}${notice.path ?? '/admin/newsletter'}` });
  for (const to of ownerAddresses(tx)) enqueueMail(tx, { kind: notice.kind, to, ...mail });
}
