import { endpoint } from '#server/app/endpoint.ts';
import { conflict, notFound } from '#server/http/errors.ts';
import { getDb } from '#server/db.ts';
import { retryMail } from '#server/mail/outbox.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Puts a failed (or unsent) e-mail back in line: the sender tries it again at once. A sent or waiting one is refused (409). */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => {
  const outcome = retryMail(getDb(), params.id);
  if (outcome === 'missing') throw notFound('E-mail not found');
  if (outcome === 'not-failed') throw conflict('Only a failed or unsent e-mail can be sent again.');
  return { success: true };
});
