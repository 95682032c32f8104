import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { actorOf, recordAudit } from '#server/accounts/security/audit.ts';
import { personalData } from '#server/privacy/personal-data.ts';
import { recordOwnerRequest } from '#server/privacy/requests.ts';
import { PrivacyAddressSchema } from '#shared/schemas/privacy.ts';

/**
 * The owner's copy of what is held about one address (for a request that came another way), as
 * the person's own link gives it. The audit row names the request, never the address.
 */
export const GET = endpoint({ auth: 'admin', query: PrivacyAddressSchema }, ({ query, user }) => {
  const db = getDb();
  const data = personalData(db, query.email);
  const id = recordOwnerRequest(db, 'access', query.email);
  recordAudit(db, actorOf(user), { action: 'privacy.export', targetId: String(id), summary: 'Downloaded the data held about one address' });
  return new Response(JSON.stringify(data, null, 2), {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': `attachment; filename="personal-data-${id}.json"`, 'Cache-Control': 'no-store' },
  });
});
