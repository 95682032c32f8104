// The e-mail a form's free download arrives in.
import type { Rendered } from '#server/mail/layout.ts';
import { layout } from '#server/site/mail.ts';

/** The download links of a form's incentive, sent once the sign-up is confirmed. */
export function incentiveMail(args: { productName: string; downloads: { fileName: string; url: string }[]; days: number; limit: number; unsubscribeUrl: string }): Rendered {
  return {
    subject: `Your download: ${args.productName}`,
    ...layout({
      heading: `Here is ${args.productName}`,
      paragraphs: ['Thank you for subscribing. Your download is ready.', `The links work for ${args.days} days and ${args.limit} downloads each; an expired link offers to e-mail you new ones.`],
      links: args.downloads.map((d) => ({ label: `Download ${d.fileName}`, url: d.url })),
      footer: `You receive this because you signed up for ${args.productName}. Unsubscribe with one click: ${args.unsubscribeUrl}`,
    }),
  };
}
