import { getDb } from '#server/db.ts';
import { listPublicTypes } from '#server/booking/service.ts';
import { endpoint } from '#server/app/endpoint.ts';

/** The event types a visitor can book (active and free). */
export const GET = endpoint({ auth: 'public' }, () => listPublicTypes(getDb()));
