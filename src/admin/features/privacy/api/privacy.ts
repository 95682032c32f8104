// Privacy calls for the admin, beside the shared schema that checks their input.
import { mutate, useQuery } from '#admin/lib/query.ts';
import { API } from '#shared/api-paths.ts';
import type { Json } from '#shared/json.ts';
import { PrivacyAddressSchema, type ErasureDto, type PrivacyRequestDto } from '#shared/schemas/privacy.ts';

export { PrivacyAddressSchema };

/** A request as the API answers it (dates as ISO strings). */
export type PrivacyRequest = Json<PrivacyRequestDto>;

/** The requests, newest first. */
export const usePrivacyRequests = () => useQuery<PrivacyRequest[]>(API.privacyRequests, 'Failed to fetch privacy requests');

/** Where the owner's copy of one address's data downloads from (the browser sends the session). */
export const exportUrl = (email: string) => API.privacyExport(email);

/** Erases what is held about one address. */
export const eraseAddress = (email: string) => mutate<Json<ErasureDto>>('POST', API.privacyErase, { email }, { title: 'Erasure failed', description: 'Nothing was erased. Please try again.' });
