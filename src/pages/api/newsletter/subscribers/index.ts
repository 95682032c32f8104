import { endpoint } from '#server/http/endpoint.ts';
import { listSubscribers } from '#server/services/newsletter.ts';

export const GET = endpoint({ auth: 'admin' }, () => listSubscribers());
