import { getDb } from '#server/context.ts';
import { startSending } from '#server/broadcasts/service.ts';
import { badRequest } from '#server/http/errors.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { mailConfigured } from '#server/mail/outbox.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Starts sending a draft to every confirmed subscriber (202): the sender works through it in the background. */
// The issue joins the public archive as it starts going out.
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: { scope: { pages: (key) => key === '/newsletter/archive' }, now: true } }, ({ params }) => {
  if (!mailConfigured()) throw badRequest('E-mail is not set up: set SMTP_URL to send issues.');
  return Response.json(startSending(getDb(), params.id), { status: 202 });
});
