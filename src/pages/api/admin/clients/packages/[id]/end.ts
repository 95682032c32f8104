import { endClientPackage } from '#server/commerce/billing/admin.ts';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Ends a client's package now (its subscription is cancelled at Stripe). */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => endClientPackage(getDb(), params.id));
