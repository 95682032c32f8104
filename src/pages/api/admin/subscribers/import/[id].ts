import { endpoint } from '#server/app/endpoint.ts';
import { getSubscriberImport } from '#server/newsletter/import/subscriber-import.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** A subscriber import: its progress while it runs, its counts and refused rows after. */
export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => getSubscriberImport(params.id));
