// E-mails about accounts and to the owner: approval, password reset, what waits in the admin.
import { publishedBrand } from '#server/site/current.ts';
import type { Rendered } from '#server/mail/layout.ts';
import { layout } from '#server/site/mail.ts';

/** Tells the owner a comment waits for approval. */
export function commentAwaitingApproval({ postTitle, authorName, content, moderateUrl }: { postTitle: string; authorName: string; content: string; moderateUrl: string }): Rendered {
  return {
    subject: `New comment waiting for approval on '${postTitle}'`,
    ...layout({ heading: 'A new comment is waiting for approval', paragraphs: [`${authorName} commented on '${postTitle}':`, content], action: { label: 'Open Admin → Comments', url: moderateUrl } }),
  };
}

/** Tells the owner a new account waits for approval. */
export function accountAwaitingApproval({ username, usersUrl }: { username: string; usersUrl: string }): Rendered {
  return {
    subject: `New account waiting for approval: ${username}`,
    ...layout({
      heading: 'A new account is waiting for approval',
      paragraphs: [`${username} registered and can log in once an admin approves the account.`],
      action: { label: 'Open Admin → Users', url: usersUrl },
    }),
  };
}

/** Tells a user their account was approved. */
export function accountApproved({ name, loginUrl }: { name: string; loginUrl: string }): Rendered {
  return {
    subject: `Your account is approved`,
    ...layout({ heading: `Welcome, ${name}`, paragraphs: [`Your account on ${publishedBrand().name}'s site is approved: you can log in now.`], action: { label: 'Log in', url: loginUrl } }),
  };
}

/** A link to set a new password (valid for an hour, once). */
export function passwordReset(resetUrl: string): Rendered {
  return {
    subject: 'Reset your password',
    ...layout({
      heading: 'Reset your password',
      paragraphs: ['Someone (hopefully you) asked to reset the password of your account. The link works once, for one hour.', 'If it was not you, ignore this e-mail: your password stays as it is.'],
      action: { label: 'Choose a new password', url: resetUrl },
    }),
  };
}

/** A notice for the owner, with a link to where to act on it. */
export function ownerNotice(notice: { subject: string; heading: string; text: string; adminUrl: string }): Rendered {
  return { subject: notice.subject, ...layout({ heading: notice.heading, paragraphs: [notice.text], action: { label: 'Open the admin', url: notice.adminUrl } }) };
}
