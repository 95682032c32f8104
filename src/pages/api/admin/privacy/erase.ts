import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { eraseAddress } from '#server/privacy/erase.ts';
import { recordOwnerRequest } from '#server/privacy/requests.ts';
import { PrivacyAddressSchema } from '#shared/schemas/privacy.ts';
import type { ErasureDto } from '#shared/schemas/privacy.ts';

/**
 * The owner erases what is held about one address (for a request that came another way). The
 * audit row (written by the endpoint wrapper) names the request and its counts, never the address.
 */
export const POST = endpoint({ auth: 'admin', body: PrivacyAddressSchema }, ({ body }): ErasureDto => {
  const db = getDb();
  const done = eraseAddress(db, body.email);
  const id = recordOwnerRequest(db, 'erasure', body.email);
  return { id, status: 'done', ...done };
});
