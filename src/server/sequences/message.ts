// A sequence step as one person gets it: the step's HTML with their merge tags filled (links and
// images absolute, embedded videos as links), a plain-text part, their own unsubscribe link in
// the footer and in the one-click headers (RFC 8058), like a newsletter issue.
import { escapeUTF8 as escapeHTML } from 'entities';
import { env } from '#server/env.ts';
import { mailText } from '#server/mail/plain-text.ts';
import { unsubscribeHeaders } from '#server/mail/layout.ts';
import { absoluteUrls, sanitizePostHtml, videosAsLinks } from '#server/html/sanitize.ts';
import { unsubscribeLink } from '#server/newsletter/subscribers.ts';
import { publishedBrand } from '#server/site/current.ts';
import { parseMerge, renderMerge, type Merge, type MergeSubscriber } from './liquid.ts';

export interface StepMessage {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** A step's parts, read once per version of the step (not once per person). */
export interface PreparedStep {
  subject: Merge;
  preheader: Merge | null;
  /** The HTML itself when it has no merge tags (made once), else its template. */
  content: Merge;
}

const absolute = (html: string) => absoluteUrls(html, `${env().SITE_URL}/`);

export function prepareStep(step: { subject: string; preheader: string | null; content: string }): PreparedStep {
  return {
    subject: parseMerge(step.subject, false, 'subject'),
    preheader: step.preheader ? parseMerge(step.preheader, false, 'preheader') : null,
    content: ((m: Merge) => ('text' in m ? { ...m, text: absolute(m.text) } : m))(parseMerge(videosAsLinks(step.content), true, 'content')),
  };
}

/** One person's message. */
export function stepMessage(step: PreparedStep, subscriber: MergeSubscriber, unsubscribeToken: string): StepMessage {
  const brand = publishedBrand();
  const unsubscribe = unsubscribeLink(unsubscribeToken);
  // What a filter makes of a value (url_decode of a name, say) is cleaned like any saved HTML.
  const body = 'text' in step.content ? step.content.text : absolute(sanitizePostHtml(renderMerge(step.content, subscriber)));
  const subject = renderMerge(step.subject, subscriber).replace(/\s+/g, ' ').trim();
  const preheader = step.preheader ? renderMerge(step.preheader, subscriber).trim() : '';
  const text = [...(preheader ? [preheader, ''] : []), mailText(body), '', '—', `${brand.newsletterName} from ${brand.name}`, `Unsubscribe: ${unsubscribe}`].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0b1220">
${preheader ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHTML(preheader)}</div>` : ''}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:16px;padding:32px">
<tr><td style="font-size:16px;line-height:26px">${body}</td></tr>
<tr><td style="font-size:12px;line-height:18px;color:#64748b;border-top:1px solid #e2e8f0;padding-top:16px">${escapeHTML(brand.newsletterName)} from ${escapeHTML(brand.name)}. You receive this because you subscribed. <a href="${escapeHTML(unsubscribe)}" style="color:#64748b">Unsubscribe</a></td></tr>
</table></td></tr></table></body></html>`;
  return { subject, text, html, headers: unsubscribeHeaders(unsubscribe) };
}
