import { getDb } from '#server/db.ts';
import { checkSendingDomain } from '#server/broadcasts/dns-check.ts';
import { archivePages, seenVersion, startSendingChecked } from '#server/broadcasts/service.ts';
import { badRequest } from '#server/http/errors.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { mailConfigured } from '#server/mail/outbox.ts';
import { BroadcastSendSchema } from '#shared/schemas/broadcast.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/**
 * Starts sending a draft to every confirmed subscriber (202): the sender works through it in
 * the background. The body may be empty; `{confirmDns: true}` is the second confirmation a send
 * to more than 5,000 people needs while the From domain's DNS check fails. With If-Match, only
 * the version the owner saw is sent (412 otherwise).
 */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, body: BroadcastSendSchema, changesContent: { scope: { pages: archivePages }, now: true } }, async ({ params, body, request }) => {
  if (!mailConfigured()) throw badRequest('E-mail is not set up: set SMTP_URL to send issues.');
  const seen = seenVersion(request);
  return Response.json(await startSendingChecked(getDb(), params.id, body.confirmDns, () => checkSendingDomain(), seen), { status: 202 });
});
