// The one look of every e-mail the site sends: plain text and HTML with the site's name (given
// by the caller: the kernel knows no brand) and colours. Values are escaped for HTML. Each
// capability writes its own e-mails with it (through #server/site/mail.ts, which adds the brand).
import { escapeUTF8 as escapeHTML } from 'entities';

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

const INK = '#0b1220';
const BRAND_BLUE = '#2553e6';

/** The words of every e-mail's last line, linking to where a reader asks for their data. */
export const PRIVACY_LINE = 'Your data: get a copy or have it erased';

/** One e-mail: a heading, paragraphs, an optional button, an optional footer line. */
export function renderLayout({
  brandName,
  heading,
  paragraphs,
  action,
  links = [],
  footer,
  privacyUrl,
}: {
  /** The site's name, shown above the heading and under the text. */
  brandName: string;
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  links?: { label: string; url: string }[];
  footer?: string;
  /** Where the reader asks for a copy or the erasure of their data: a line at the very end. */
  privacyUrl?: string;
}): { text: string; html: string } {
  const text = [
    heading,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...links.flatMap((l) => [`${l.label}: ${l.url}`, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    '—',
    brandName,
    ...(footer ? ['', footer] : []),
    ...(privacyUrl ? ['', `${PRIVACY_LINE}: ${privacyUrl}`] : []),
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:${INK}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:16px;padding:32px">
<tr><td style="font-size:14px;font-weight:700;color:${BRAND_BLUE};padding-bottom:16px">${escapeHTML(brandName)}</td></tr>
<tr><td style="font-size:22px;font-weight:700;padding-bottom:12px">${escapeHTML(heading)}</td></tr>
${paragraphs.map((p) => `<tr><td style="font-size:16px;line-height:24px;padding-bottom:12px">${escapeHTML(p)}</td></tr>`).join('\n')}
${links.map((l) => `<tr><td style="font-size:16px;line-height:24px;padding-bottom:8px"><a href="${escapeHTML(l.url)}" style="color:${BRAND_BLUE};font-weight:600">${escapeHTML(l.label)}</a></td></tr>`).join('\n')}
${action ? `<tr><td style="padding:12px 0 20px"><a href="${escapeHTML(action.url)}" style="display:inline-block;background:${BRAND_BLUE};color:#ffffff;text-decoration:none;font-weight:600;border-radius:8px;padding:12px 20px">${escapeHTML(action.label)}</a></td></tr>` : ''}
${footer ? `<tr><td style="font-size:12px;line-height:18px;color:#64748b;border-top:1px solid #e2e8f0;padding-top:16px">${escapeHTML(footer)}</td></tr>` : ''}
${privacyUrl ? `<tr><td style="font-size:12px;line-height:18px;color:#64748b;padding-top:${footer ? 8 : 16}px${footer ? '' : ';border-top:1px solid #e2e8f0'}"><a href="${escapeHTML(privacyUrl)}" style="color:#64748b">${PRIVACY_LINE}</a></td></tr>` : ''}
</table></td></tr></table></body></html>`;
  return { text, html };
}

/** The headers of every e-mail to a subscriber: one-click unsubscribe (RFC 8058). */
export const unsubscribeHeaders = (unsubscribeUrl: string) => ({ 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
