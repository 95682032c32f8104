import { env } from '@/server/env';
import { endpoint } from '@/server/http/endpoint';
import { mailConfigured } from '@/server/mail/outbox';
import { podcastOwnerEmail } from '@/server/services/feeds';

/**
 * What the admin dashboard may know about the configuration: whether analytics is set up and
 * where its dashboard lives, and whether the podcast feed can name its owner's e-mail. Flags and
 * public URLs only, never keys or secrets.
 */
export const GET = endpoint({ auth: 'admin' }, () => {
  const e = env();
  return {
    analyticsConfigured: Boolean(e.ANALYTICS_ID),
    analyticsDashboardUrl: e.ANALYTICS_DASHBOARD_URL ?? null,
    podcastOwnerEmailConfigured: podcastOwnerEmail() !== null,
    mailConfigured: mailConfigured(),
  };
});
