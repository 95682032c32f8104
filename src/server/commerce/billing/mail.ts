// The e-mails of coaching packages: a new client's set-password link, a failed payment (to the
// client, with the page where they can pay with another card, and to the owner), an ended package.
import { layout } from '#server/site/mail.ts';
import { type Rendered } from '#server/mail/layout.ts';
import { publishedBrand } from '#server/site/current.ts';
import { formatPrice } from '#shared/format.ts';

/** A new client's account: their username and a link to choose a password (valid a week, once). */
export function setPasswordMail({ packageName, username, url, accountUrl }: { packageName: string; username: string; url: string; accountUrl: string }): Rendered {
  return {
    subject: `Your ${packageName} account`,
    ...layout({
      heading: 'Welcome aboard',
      paragraphs: [
        `Thank you for buying ${packageName}. Your client area shows your package, books your sessions and keeps your receipts.`,
        `Your username is ${username}. Choose a password to log in: the link works once, for seven days.`,
      ],
      action: { label: 'Choose your password', url },
      links: [{ label: 'Your client area', url: accountUrl }],
    }),
  };
}

/** The client's payment did not go through: where to pay it with another card. */
export function paymentFailedMail({ packageName, amount, payUrl }: { packageName: string; amount: number; payUrl: string | null }): Rendered {
  return {
    subject: `Your payment for ${packageName} did not go through`,
    ...layout({
      heading: 'Your payment did not go through',
      paragraphs: [
        `We could not take your payment of ${formatPrice(amount)} for ${packageName}. Your card may have expired, or your bank declined it.`,
        'Your package stays open while the payment is retried over the next days. Pay with another card to keep it.',
      ],
      ...(payUrl ? { action: { label: 'Update your card and pay', url: payUrl } } : {}),
      footer: `Questions? Reply to this e-mail and ${publishedBrand().name} will help.`,
    }),
  };
}
