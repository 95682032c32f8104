import { listClients } from '#server/commerce/billing/clients.ts';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';

/** Every client with their packages (status, sessions used and left) and payments. */
export const GET = endpoint({ auth: 'admin' }, () => listClients(getDb()));
