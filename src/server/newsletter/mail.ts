// The newsletter's own e-mails: the double opt-in request and the welcome.
import { publishedBrand } from '#server/site/current.ts';
import type { Rendered } from '#server/mail/layout.ts';
import { layout } from '#server/site/mail.ts';

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
