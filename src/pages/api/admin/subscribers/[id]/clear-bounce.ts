import { endpoint } from '#server/app/endpoint.ts';
import { clearBounce } from '#server/newsletter/subscribers.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Clears a bounce the owner knows was a mistake: the subscriber is back to what they were before it. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => clearBounce(params.id));
