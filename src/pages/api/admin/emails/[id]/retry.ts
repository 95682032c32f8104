import { endpoint } from '#server/http/endpoint.ts';
import { notFound } from '#server/http/errors.ts';
import { getDb } from '#server/context.ts';
import { retryMail } from '#server/mail/outbox.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Puts a failed (or unsent) e-mail back in line: the sender tries it again at once. */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => {
  if (!retryMail(getDb(), params.id)) throw notFound('E-mail not found');
  return { success: true };
});
