// A newsletter issue as one recipient gets it: the issue's HTML (links and images absolute,
// embedded videos as links), a plain-text part, a 'view in browser' link, the recipient's own
// unsubscribe link in the footer and in the one-click headers (RFC 8058).
import { escapeUTF8 as escapeHTML } from 'entities';
import { env } from '#server/env.ts';
import { badRequest } from '#server/http/errors.ts';
import { mailText } from '#server/mail/plain-text.ts';
import { PRIVACY_LINE, unsubscribeHeaders } from '#server/mail/layout.ts';
import { signature } from '#server/http/signing.ts';
import { absoluteUrls, linksThrough, videosAsLinks } from '#server/html/sanitize.ts';
import { unsubscribeLink } from '#server/newsletter/subscribers.ts';
import { publishedBrand } from '#server/site/current.ts';
import { privacyRequestUrl } from '#server/site/mail.ts';

export interface IssueMessage {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

type Issue = { id: number; subject: string; preheader: string | null; slug: string; subscribersOnly: boolean; track: boolean };

/** The address of a click counted for `issue` that leads on to `url` (signed, so it leads nowhere else). */
export const clickUrl = (issueId: number, url: string) => `${env().SITE_URL}/newsletter/c/${issueId}?u=${encodeURIComponent(url)}&s=${signature('issue-click', `${issueId}:${url}`)}`;

/** The issue in a browser: a subscribers-only issue's link carries a signature instead of a login. */
export const viewUrl = (issue: Pick<Issue, 'slug' | 'subscribersOnly'>) => `${env().SITE_URL}/newsletter/${issue.slug}${issue.subscribersOnly ? `?k=${signature('issue-view', issue.slug)}` : ''}`;

/**
 * The body shared by every recipient of an issue (made once per send). With tracking on, its
 * links go through a counting redirect and an image counts opens: both name the issue only,
 * never the recipient. Content it cannot be made from (an older version stored some nested
 * thousands of levels deep, which overflows the stack) is a 400 that says so, never a bare 500.
 */
export function issueBody(issue: { id: number; content: string; track: boolean }): { html: string; text: string } {
  try {
    return bodyOf(issue);
  } catch (err) {
    throw badRequest(`The issue's content could not be made into an e-mail (${err instanceof Error ? err.message : String(err)}); it may be nested too deeply.`);
  }
}

function bodyOf(issue: { id: number; content: string; track: boolean }): { html: string; text: string } {
  const html = absoluteUrls(videosAsLinks(issue.content), `${env().SITE_URL}/`);
  // Its links lead straight on: a reader of the text part is not counted.
  const text = mailText(html);
  if (!issue.track) return { html, text };
  const pixel = `<img src="${env().SITE_URL}/newsletter/o/${issue.id}.gif" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">`;
  return { html: `${linksThrough(html, (url) => clickUrl(issue.id, url))}${pixel}`, text };
}

/** One recipient's message. `test` marks a test send in the subject. */
export function issueMessage(issue: Issue, body: { html: string; text: string }, unsubscribeToken: string | null, test = false): IssueMessage {
  return newsletterEmail({
    subject: `${test ? '[TEST] ' : ''}${issue.subject}`,
    preheader: issue.preheader,
    body,
    view: viewUrl(issue),
    unsubscribe: unsubscribeToken ? unsubscribeLink(unsubscribeToken) : `${env().SITE_URL}/newsletter`,
    oneClick: unsubscribeToken !== null,
  });
}

/**
 * The frame every newsletter e-mail shares, an issue or a sequence step: the preheader, the body,
 * a 'view in browser' link when there is a page to view, and a footer naming the newsletter with
 * the reader's unsubscribe link and the privacy request link; the plain-text part holds the same.
 * `oneClick`: the unsubscribe link is the reader's own, so the one-click headers (RFC 8058) carry it.
 */
export function newsletterEmail(parts: { subject: string; preheader: string | null; body: { html: string; text: string }; view: string | null; unsubscribe: string; oneClick: boolean }): IssueMessage {
  const { preheader, body, view, unsubscribe } = parts;
  const brand = publishedBrand();
  const privacy = privacyRequestUrl();
  const text = [
    ...(preheader ? [preheader, ''] : []),
    body.text,
    '',
    '—',
    `${brand.newsletterName} from ${brand.name}`,
    ...(view ? [`View in your browser: ${view}`] : []),
    `Unsubscribe: ${unsubscribe}`,
    `${PRIVACY_LINE}: ${privacy}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0b1220">
${preheader ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHTML(preheader)}</div>` : ''}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:16px;padding:32px">
${view ? `<tr><td style="font-size:12px;color:#64748b;padding-bottom:16px"><a href="${escapeHTML(view)}" style="color:#64748b">View in your browser</a></td></tr>\n` : ''}<tr><td style="font-size:16px;line-height:26px">${body.html}</td></tr>
<tr><td style="font-size:12px;line-height:18px;color:#64748b;border-top:1px solid #e2e8f0;padding-top:16px">${escapeHTML(brand.newsletterName)} from ${escapeHTML(brand.name)}. You receive this because you subscribed. <a href="${escapeHTML(unsubscribe)}" style="color:#64748b">Unsubscribe</a> · <a href="${escapeHTML(privacy)}" style="color:#64748b">${PRIVACY_LINE}</a></td></tr>
</table></td></tr></table></body></html>`;
  return { subject: parts.subject, text, html, headers: parts.oneClick ? unsubscribeHeaders(unsubscribe) : {} };
}
