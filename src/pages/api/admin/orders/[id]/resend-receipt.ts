import { endpoint } from '#server/app/endpoint.ts';
import { resendReceipt } from '#server/commerce/downloads.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** E-mails a paid order's receipt again, with new download links. */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => {
  resendReceipt(params.id);
  return { success: true };
});
