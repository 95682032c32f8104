import { endpoint } from '@/server/http/endpoint';
import { notFound } from '@/server/http/errors';
import { getDb } from '@/server/context';
import { retryMail } from '@/server/mail/outbox';
import { IdParamsSchema } from '@/shared/schemas/common';

/** Puts a failed (or unsent) e-mail back in line: the sender tries it again at once. */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => {
  if (!retryMail(getDb(), params.id)) throw notFound('E-mail not found');
  return { success: true };
});
