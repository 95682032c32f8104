import { refundLastPayment } from '#server/commerce/billing/admin.ts';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Refunds the package's last payment in full at Stripe; the package's downloads stop working. */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => refundLastPayment(getDb(), params.id));
