import { endpoint } from '#server/app/endpoint.ts';
import { listSubscribers, pageSubscribers } from '#server/newsletter/subscribers.ts';
import { SubscriberPageQuerySchema } from '#shared/schemas/newsletter.ts';
import { asksForPage } from '#shared/schemas/paging.ts';

/**
 * Every subscriber (the plain call other tools rely on), or, given `page`, `pageSize`, `q` or
 * `since`, one page with the match count and the stat cards' figures.
 */
export const GET = endpoint({ auth: 'admin', query: SubscriberPageQuerySchema }, ({ query }) => (asksForPage(query) ? pageSubscribers(query) : listSubscribers()));
