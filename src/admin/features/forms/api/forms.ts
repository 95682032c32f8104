// Sign-up form calls for the admin, beside the shared schema that checks their input.
import { mutate, useQuery } from '#admin/lib/query.ts';
import { resourceApi } from '#admin/lib/resource-api.ts';
import { API } from '#shared/api-paths.ts';
import type { Json } from '#shared/json.ts';
import { FormInputSchema, type FormDto, type FormInput, type SendIncentiveDto, type SendIncentiveInput } from '#shared/schemas/forms.ts';

export { FormInputSchema, type FormInput };

/** A form as the API answers it (dates as ISO strings). */
export type SignupForm = Json<FormDto>;

const api = resourceApi<SignupForm, FormInput>(API.forms, API.form, { plural: 'forms', singular: 'form' });
export const { useList: useForms, create: createForm, update: updateForm, remove: deleteForm } = api;

/** The products a form can give as its download (any product, for sale or not). */
export const useProductChoices = () => useQuery<{ id: number; name: string }[]>(API.products, 'Failed to fetch products');

/** Sends a form's download by hand: to everyone who confirmed before it had one, or to one person again. */
export const sendIncentive = (id: number, input: SendIncentiveInput) =>
  mutate<SendIncentiveDto>('POST', API.formSendIncentive(id), input, { title: 'Error', description: 'Failed to send the download. Please try again.' });
