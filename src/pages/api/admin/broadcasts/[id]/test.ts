import { getDb } from '#server/db.ts';
import { getBroadcast } from '#server/broadcasts/service.ts';
import { issueBody, issueMessage } from '#server/broadcasts/message.ts';
import { badRequest } from '#server/http/errors.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { LIMITS, hit } from '#server/http/rate-limit.ts';
import { enqueueMail, mailConfigured } from '#server/mail/outbox.ts';
import { BroadcastTestSchema } from '#shared/schemas/broadcast.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Sends the issue as it will go out to one address, '[TEST]' in the subject; ten an hour. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, body: BroadcastTestSchema, changesContent: false }, ({ params, body, user }) => {
  if (!mailConfigured()) throw badRequest('E-mail is not set up: set SMTP_URL to send issues.');
  const db = getDb();
  const issue = getBroadcast(db, params.id);
  hit(LIMITS.broadcastTest, user.id);
  // The owner's own test copy counts no opens or clicks.
  const message = issueMessage(issue, issueBody({ ...issue, track: false }), null, true);
  enqueueMail(db, { kind: 'broadcast-test', to: body.email, subject: message.subject, text: message.text, html: message.html });
  return { success: true };
});
