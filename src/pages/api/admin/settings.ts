import { env } from '@/server/env';
import { getDb } from '@/server/context';
import { endpoint } from '@/server/http/endpoint';
import { mailConfigured } from '@/server/mail/outbox';
import { podcastOwnerEmail } from '@/server/services/feeds';
import { settingsAnswer, updateSettings } from '@/server/services/settings';
import { SettingsPatchSchema } from '@/shared/schemas/settings';

/**
 * What the admin may know about the configuration (whether analytics, the podcast owner's
 * e-mail and mail are set up; flags and public URLs only, never keys or secrets) and the
 * owner's settings (Admin → Settings).
 */
export const GET = endpoint({ auth: 'admin' }, () => {
  const e = env();
  return {
    analyticsConfigured: Boolean(e.ANALYTICS_ID),
    analyticsDashboardUrl: e.ANALYTICS_DASHBOARD_URL ?? null,
    podcastOwnerEmailConfigured: podcastOwnerEmail() !== null,
    mailConfigured: mailConfigured(),
    ...settingsAnswer(getDb()),
  };
});

/** Changes some settings; answers the settings now in force. */
export const PUT = endpoint({ auth: 'admin', changesContent: false, body: SettingsPatchSchema }, ({ body }) => updateSettings(getDb(), body));
