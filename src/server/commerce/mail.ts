// A buyer's e-mails: the receipt with its download links, and fresh links for an order.
import type { Rendered } from '#server/mail/layout.ts';
import { layout } from '#server/site/mail.ts';

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

/** Fresh download links for an order (or a free download: no order number), asked for from an expired or used-up link. */
export function freshDownloads(order: { number: number | null; productName: string; downloads: { fileName: string; url: string }[]; days: number; limit: number }): Rendered {
  const forWhat = order.number === null ? order.productName : `order ${order.number}`;
  return {
    subject: order.number === null ? `New download links for ${order.productName}` : `New download links for ${order.productName} (order ${order.number})`,
    ...layout({
      heading: 'Your new download links',
      paragraphs: [`Here are new links for ${forWhat}. They work for ${order.days} days and ${order.limit} downloads each.`],
      links: order.downloads.map((d) => ({ label: `Download ${d.fileName}`, url: d.url })),
    }),
  };
}
