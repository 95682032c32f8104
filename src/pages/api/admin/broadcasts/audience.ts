import { getDb } from '#server/db.ts';
import { audienceSize } from '#server/broadcasts/service.ts';
import { endpoint } from '#server/app/endpoint.ts';

/** How many subscribers a send started now would go to (the confirm dialog's count). */
export const GET = endpoint({ auth: 'admin' }, () => ({ count: audienceSize(getDb()) }));
