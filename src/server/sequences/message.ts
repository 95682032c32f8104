// A sequence step as one person gets it: the step's HTML with their merge tags filled (links and
// images absolute, embedded videos as links), a plain-text part, their own unsubscribe link in
// the footer and in the one-click headers (RFC 8058), like a newsletter issue.
import { newsletterEmail, type IssueMessage } from '#server/broadcasts/message.ts';
import { env } from '#server/env.ts';
import { mailText } from '#server/mail/plain-text.ts';
import { absoluteUrls, sanitizePostHtml, videosAsLinks } from '#server/html/sanitize.ts';
import { unsubscribeLink } from '#server/newsletter/subscribers.ts';
import { parseMerge, renderMerge, type Merge, type MergeSubscriber } from './liquid.ts';

/** A step's message: the same parts as an issue's. */
export type StepMessage = IssueMessage;

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

/** One person's message, in the newsletter's frame (footer, unsubscribe, privacy link) like an issue. */
export function stepMessage(step: PreparedStep, subscriber: MergeSubscriber, unsubscribeToken: string): StepMessage {
  // What a filter makes of a value (url_decode of a name, say) is cleaned like any saved HTML.
  const html = 'text' in step.content ? step.content.text : absolute(sanitizePostHtml(renderMerge(step.content, subscriber)));
  return newsletterEmail({
    subject: renderMerge(step.subject, subscriber).replace(/\s+/g, ' ').trim(),
    preheader: step.preheader ? renderMerge(step.preheader, subscriber).trim() || null : null,
    body: { html, text: mailText(html) },
    view: null,
    unsubscribe: unsubscribeLink(unsubscribeToken),
    oneClick: true,
  });
}
