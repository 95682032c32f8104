// The site's e-mails carry its published name: the e-mail layout and the From header of the
// kernel's mail, with the brand filled in.
import { env, type Env } from '#server/env.ts';
import { renderLayout } from '#server/mail/layout.ts';
import { mailFromFor } from '#server/mail/sender.ts';
import { publishedBrand } from './current.ts';

/** Where a reader asks for a copy or the erasure of their data (the last line of every e-mail). */
export const privacyRequestUrl = () => `${env().SITE_URL}/privacy/request`;

/** One e-mail in the site's look: a heading, paragraphs, an optional button, links and footer, and the privacy line. */
export const layout = (content: Omit<Parameters<typeof renderLayout>[0], 'brandName' | 'privacyUrl'>) =>
  renderLayout({ ...content, brandName: publishedBrand().name, privacyUrl: privacyRequestUrl() });

/** The From header: MAIL_FROM, else the site's name at no-reply@ its host. */
export const mailFrom = (e: Pick<Env, 'MAIL_FROM' | 'SITE_URL'>) => mailFromFor(e, publishedBrand().name);
