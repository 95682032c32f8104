// One sign-up form. Writes drop the page cache (its page and the pages it is placed on).
import { endpoint } from '#server/app/endpoint.ts';
import { deleteForm, getForm, updateForm } from '#server/forms/forms.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import { FormInputSchema } from '#shared/schemas/forms.ts';

export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => getForm(params.id));

export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: FormInputSchema }, ({ params, body }) => updateForm(params.id, body));

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => {
  deleteForm(params.id);
  return { success: true };
});
