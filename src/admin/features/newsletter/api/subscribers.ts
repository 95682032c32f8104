// The newsletter subscriber calls of the admin: list, delete, and clearing a bounce.
import { API } from '#shared/api-paths.ts';
import { api } from '#lib/api-client.ts';
import type { Json } from '#shared/json.ts';
import type { SubscriberDto } from '#shared/schemas/newsletter.ts';

/** A subscriber as GET /api/newsletter/subscribers returns it (dates as ISO strings). */
export type Subscriber = Json<SubscriberDto>;

export { STATUS_LABEL } from '#shared/subscriber-csv.ts';

export const SUBSCRIBERS_PATH = API.subscribers;

export const deleteSubscriber = (id: number) => api<{ success: true }>('DELETE', `${SUBSCRIBERS_PATH}/${id}`);

/** Puts a bounced subscriber back to what they were before the bounce (active, when they had confirmed). */
export const clearBounce = (id: number) => api<Subscriber>('POST', API.clearBounce(id));

/** The e-mail service's own pages, opened in a new tab. */
export const KIT_SUBSCRIBERS_URL = 'https://app.kit.com/subscribers';
export const KIT_DASHBOARD_URL = 'https://app.kit.com/dashboard';
