import { endClientPackage } from '#server/billing/admin.ts';
import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Ends a client's package now (its subscription is cancelled at Stripe). */
export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema }, ({ params }) => endClientPackage(getDb(), params.id));
