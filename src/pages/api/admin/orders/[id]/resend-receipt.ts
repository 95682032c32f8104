import { endpoint } from '#server/http/endpoint.ts';
import { resendReceipt } from '#server/services/downloads.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** E-mails a paid order's receipt again, with new download links. */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => {
  resendReceipt(params.id);
  return { success: true };
});
