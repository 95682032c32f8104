import { endpoint } from '#server/app/endpoint.ts';
import { refundOrder } from '#server/commerce/checkout.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Refunds a paid order in full through Stripe; its download links stop working. */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => refundOrder(params.id));
