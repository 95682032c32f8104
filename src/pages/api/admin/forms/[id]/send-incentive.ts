// Sends a form's free download by hand: again to one person, or to everyone who confirmed
// through the form before it had this download (nothing is sent to them by itself).
import { endpoint } from '#server/app/endpoint.ts';
import { sendIncentive } from '#server/forms/incentive.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import { SendIncentiveSchema } from '#shared/schemas/forms.ts';

export const POST = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema, body: SendIncentiveSchema }, ({ params, body }) => sendIncentive(params.id, body));
