import { endpoint } from '#server/http/endpoint.ts';
import { listOrders } from '#server/services/checkout.ts';

export const GET = endpoint({ auth: 'admin' }, () => listOrders());
