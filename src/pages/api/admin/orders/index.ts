import { endpoint } from '@/server/http/endpoint';
import { listOrders } from '@/server/services/checkout';

export const GET = endpoint({ auth: 'admin' }, () => listOrders());
