import { refundLastPayment } from '#server/billing/admin.ts';
import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Refunds the package's last payment in full at Stripe; the package's downloads stop working. */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => refundLastPayment(getDb(), params.id));
