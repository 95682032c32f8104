import { listClients } from '#server/billing/clients.ts';
import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';

/** Every client with their packages (status, sessions used and left) and payments. */
export const GET = endpoint({ auth: 'admin' }, () => listClients(getDb()));
