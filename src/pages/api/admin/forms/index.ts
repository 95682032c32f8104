// Sign-up forms (Admin → Forms): each with its confirmed sign-ups. Writes drop the page cache
// (a form's page, and the pages it is placed on, show its words).
import { endpoint, json } from '#server/app/endpoint.ts';
import { createForm, listForms } from '#server/forms/forms.ts';
import { FormInputSchema } from '#shared/schemas/forms.ts';

export const GET = endpoint({ auth: 'admin' }, () => listForms());

export const POST = endpoint({ auth: 'admin', body: FormInputSchema }, ({ body }) => json(createForm(body), 201));
