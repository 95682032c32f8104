import { endpoint } from '@/server/http/endpoint';
import { listSubscribers } from '@/server/services/newsletter';

export const GET = endpoint({ auth: 'admin' }, () => listSubscribers());
