// A package arranged by request ('Custom'): its form e-mails the owner, who answers by e-mail
// (Reply-To is the visitor). Nothing else is stored.
import { getDb } from '#server/context.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { ownerAddresses } from '#server/mail/notify.ts';
import { layout } from '#server/mail/templates.ts';
import type { PackageRequestSchema } from '#shared/schemas/billing.ts';
import type * as z from 'zod';
import { packageByRequest } from './checkout.ts';

export function requestPackage(req: z.infer<typeof PackageRequestSchema>): void {
  const pkg = packageByRequest(req.packageId);
  const mail = {
    subject: `A request for ${pkg.name} from ${req.name}`,
    ...layout({ heading: `${req.name} asks about ${pkg.name}`, paragraphs: [`From: ${req.name} <${req.email}>`, req.message, 'Reply to this e-mail to answer them.'] }),
  };
  const db = getDb();
  db.transaction((tx) => {
    for (const to of ownerAddresses(tx)) enqueueMail(tx, { kind: 'package-request', to, headers: { 'Reply-To': req.email }, ...mail });
  });
}
