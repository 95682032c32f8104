import { getDb } from '#server/db.ts';
import { feedUrl, regenerateFeedToken } from '#server/booking/service.ts';
import { endpoint } from '#server/app/endpoint.ts';

/** A new secret address for the private feed of bookings; the old one stops working. */
export const POST = endpoint({ auth: 'admin', changesContent: false }, () => ({ feedUrl: feedUrl(regenerateFeedToken(getDb())) }));
