// Every e-mail the site sends, in one place: plain text and HTML with the site's name and
// colours, links absolute (SITE_URL). Values are escaped for HTML.
import { escapeUTF8 as escapeHTML } from 'entities';
import { publishedBrand } from '#server/site/current.ts';

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

const INK = '#0b1220';
const BRAND_BLUE = '#2553e6';

/** One e-mail: a heading, paragraphs, an optional button, an optional footer line. */
export function layout({
  heading,
  paragraphs,
  action,
  links = [],
  footer,
}: {
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  links?: { label: string; url: string }[];
  footer?: string;
}): { text: string; html: string } {
  const text = [
    heading,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...links.flatMap((l) => [`${l.label}: ${l.url}`, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    '—',
    publishedBrand().name,
    ...(footer ? ['', footer] : []),
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:${INK}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:16px;padding:32px">
<tr><td style="font-size:14px;font-weight:700;color:${BRAND_BLUE};padding-bottom:16px">${escapeHTML(publishedBrand().name)}</td></tr>
<tr><td style="font-size:22px;font-weight:700;padding-bottom:12px">${escapeHTML(heading)}</td></tr>
${paragraphs.map((p) => `<tr><td style="font-size:16px;line-height:24px;padding-bottom:12px">${escapeHTML(p)}</td></tr>`).join('\n')}
${links.map((l) => `<tr><td style="font-size:16px;line-height:24px;padding-bottom:8px"><a href="${escapeHTML(l.url)}" style="color:${BRAND_BLUE};font-weight:600">${escapeHTML(l.label)}</a></td></tr>`).join('\n')}
${action ? `<tr><td style="padding:12px 0 20px"><a href="${escapeHTML(action.url)}" style="display:inline-block;background:${BRAND_BLUE};color:#ffffff;text-decoration:none;font-weight:600;border-radius:8px;padding:12px 20px">${escapeHTML(action.label)}</a></td></tr>` : ''}
${footer ? `<tr><td style="font-size:12px;line-height:18px;color:#64748b;border-top:1px solid #e2e8f0;padding-top:16px">${escapeHTML(footer)}</td></tr>` : ''}
</table></td></tr></table></body></html>`;
  return { text, html };
}

/** Asks a new subscriber to confirm (double opt-in). */
export function confirmSubscription(confirmUrl: string): Rendered {
  return {
    subject: `Please confirm your subscription to ${publishedBrand().newsletterName}`,
    ...layout({
      heading: 'Confirm your subscription',
      paragraphs: [
        `Someone (hopefully you) asked to receive ${publishedBrand().newsletterName} at this address.`,
        'Please confirm within 7 days. If it was not you, ignore this e-mail: you will not be subscribed.',
      ],
      action: { label: 'Confirm my subscription', url: confirmUrl },
    }),
  };
}

/** Welcomes a confirmed subscriber. */
export function welcome(unsubscribeUrl: string): Rendered {
  return {
    subject: `Welcome to ${publishedBrand().newsletterName}`,
    ...layout({
      heading: `Welcome to ${publishedBrand().newsletterName}`,
      paragraphs: ['You are subscribed. Expect one practical insight on leadership, technology and growth in your inbox every week.'],
      footer: `You receive this because you subscribed to ${publishedBrand().newsletterName}. Unsubscribe with one click: ${unsubscribeUrl}`,
    }),
  };
}

/** The headers of every e-mail to a subscriber: one-click unsubscribe (RFC 8058). */
export const unsubscribeHeaders = (unsubscribeUrl: string) => ({ 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });

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

/** What a buyer paid for, with a download link per file, or what happens next when there are none. */
export function receipt(order: {
  number: number;
  productName: string;
  amount: string;
  date: string;
  downloads: { fileName: string; url: string }[];
  days: number;
  limit: number;
  bookingUrl: string | null;
}): Rendered {
  const details = [`Product: ${order.productName}`, `Amount: ${order.amount}`, `Date: ${order.date}`, `Order number: ${order.number}`];
  const next =
    order.downloads.length > 0
      ? [`Your download links work for ${order.days} days and ${order.limit} downloads each:`]
      : order.bookingUrl
        ? ['What happens next: book your session at a time that suits you.']
        : ['What happens next: we will be in touch within one working day to arrange everything.'];
  return {
    subject: `Your receipt for ${order.productName} (order ${order.number})`,
    ...layout({
      heading: 'Thank you for your purchase',
      paragraphs: [...details, ...next],
      links: order.downloads.map((d) => ({ label: `Download ${d.fileName}`, url: d.url })),
      ...(order.downloads.length === 0 && order.bookingUrl ? { action: { label: 'Book your session', url: order.bookingUrl } } : {}),
      footer: `Keep this e-mail: it is your receipt. Questions about your order? Reply with the order number ${order.number}.`,
    }),
  };
}

/** Fresh download links for an order, asked for from an expired or used-up link. */
export function freshDownloads(order: { number: number; productName: string; downloads: { fileName: string; url: string }[]; days: number; limit: number }): Rendered {
  return {
    subject: `New download links for ${order.productName} (order ${order.number})`,
    ...layout({
      heading: 'Your new download links',
      paragraphs: [`Here are new links for order ${order.number}. They work for ${order.days} days and ${order.limit} downloads each.`],
      links: order.downloads.map((d) => ({ label: `Download ${d.fileName}`, url: d.url })),
    }),
  };
}

/** A notice for the owner, with a link to where to act on it. */
export function ownerNotice(notice: { subject: string; heading: string; text: string; adminUrl: string }): Rendered {
  return { subject: notice.subject, ...layout({ heading: notice.heading, paragraphs: [notice.text], action: { label: 'Open the admin', url: notice.adminUrl } }) };
}
