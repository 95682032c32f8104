import { endpoint } from '@/server/http/endpoint';
import { refundOrder } from '@/server/services/checkout';
import { IdParamsSchema } from '@/shared/schemas/common';

/** Refunds a paid order in full through Stripe; its download links stop working. */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => refundOrder(params.id));
