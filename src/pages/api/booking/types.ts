import { getDb } from '#server/context.ts';
import { listPublicTypes } from '#server/booking/service.ts';
import { endpoint } from '#server/http/endpoint.ts';

/** The event types a visitor can book (active and free). */
export const GET = endpoint({ auth: 'public' }, () => listPublicTypes(getDb()));
