// A package arranged by request ('Custom'): its form e-mails the owner, who answers by e-mail
// (Reply-To is the visitor). Nothing else is stored.
import { getDb } from '#server/db.ts';
import { HttpError } from '#server/http/errors.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { ownerAddresses } from '#server/accounts/notify.ts';
import { layout } from '#server/site/mail.ts';
import type { PackageRequestSchema } from '#shared/schemas/billing.ts';
import type * as z from 'zod';
import { packageByRequest } from './checkout.ts';

export const NO_ADDRESS = 'Requests cannot be sent from this site yet: no contact address is set up. Please get in touch another way.';

/** Whether a request has somewhere to go (the site's contact address, or an admin's). */
export const requestsPossible = () => ownerAddresses(getDb()).length > 0;

export function requestPackage(req: z.infer<typeof PackageRequestSchema>): void {
  const pkg = packageByRequest(req.packageId);
  const mail = {
    subject: `A request for ${pkg.name} from ${req.name}`,
    ...layout({ heading: `${req.name} asks about ${pkg.name}`, paragraphs: [`From: ${req.name} <${req.email}>`, req.message, 'Reply to this e-mail to answer them.'] }),
  };
  const db = getDb();
  db.transaction((tx) => {
    const owners = ownerAddresses(tx);
    // Telling the visitor it was sent when it goes nowhere would lose their request.
    if (owners.length === 0) throw new HttpError(503, NO_ADDRESS);
    for (const to of owners) enqueueMail(tx, { kind: 'package-request', to, headers: { 'Reply-To': req.email }, ...mail });
  });
}
