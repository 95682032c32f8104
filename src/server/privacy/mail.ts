// The e-mail that answers a privacy request: the signed link, valid 24 hours.
import type { Rendered } from '#server/mail/layout.ts';
import { publishedBrand } from '#server/site/current.ts';
import { layout } from '#server/site/mail.ts';
import type { PrivacyKind } from '#shared/schemas/privacy.ts';

/** The link to a copy of one's data, or to confirm its erasure. */
export function privacyLinkMail(kind: PrivacyKind, url: string): Rendered {
  const brand = publishedBrand().name;
  const ignore = 'If you did not ask for this, ignore this e-mail: nothing happens without the link.';
  return kind === 'access'
    ? {
        subject: `Your data at ${brand}`,
        ...layout({
          heading: 'Your copy of your data',
          paragraphs: [`You asked for a copy of what ${brand} holds about this address. The link below downloads it as a JSON file; it works for 24 hours.`, ignore],
          action: { label: 'Download my data', url },
        }),
      }
    : {
        subject: `Confirm the erasure of your data at ${brand}`,
        ...layout({
          heading: 'Erase your data',
          paragraphs: [
            `You asked ${brand} to erase what it holds about this address. The link below asks you to confirm; it works for 24 hours.`,
            'Orders keep their amounts and dates for the accounts, without your address or name.',
            ignore,
          ],
          action: { label: 'Review and confirm the erasure', url },
        }),
      };
}
