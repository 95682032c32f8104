import { endpoint } from '#server/http/endpoint.ts';
import { refundOrder } from '#server/services/checkout.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Refunds a paid order in full through Stripe; its download links stop working. */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => refundOrder(params.id));
