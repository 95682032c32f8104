// The newsletter subscriber calls of the admin: list and delete.
import { api } from '#lib/api-client.ts';

/** A subscriber as GET /api/newsletter/subscribers returns it (dates as ISO strings). */
export interface Subscriber {
  id: number;
  email: string;
  name: string | null;
  /** The id at the e-mail service (Kit, formerly ConvertKit); null until synced. */
  convertKitId: string | null;
  isActive: boolean;
  /** Active, pending (confirmation link sent), unsubscribed (by their own link), or inactive. */
  status: 'active' | 'pending' | 'unsubscribed' | 'inactive';
  subscribedAt: string;
}

/** How each status is written in the list and the CSV. */
export const STATUS_LABEL: Record<Subscriber['status'], string> = { active: 'Active', pending: 'Pending', unsubscribed: 'Unsubscribed', inactive: 'Inactive' };

export const SUBSCRIBERS_PATH = '/api/newsletter/subscribers';

export const deleteSubscriber = (id: number) => api<{ success: true }>('DELETE', `${SUBSCRIBERS_PATH}/${id}`);

/** The e-mail service's own pages, opened in a new tab. */
export const KIT_SUBSCRIBERS_URL = 'https://app.kit.com/subscribers';
export const KIT_DASHBOARD_URL = 'https://app.kit.com/dashboard';
