import { env } from '#server/env.ts';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { mailConfigured } from '#server/mail/outbox.ts';
import { podcastOwnerEmail } from '#server/content/feeds.ts';
import { settingsAnswer, updateSettings } from '#server/site/settings.ts';
import { getPublishedSite } from '#server/site/document.ts';
import { SettingsPatchSchema, type AdminSettingsDto } from '#shared/schemas/settings.ts';

/**
 * What the admin may know about the configuration (whether analytics, the podcast owner's
 * e-mail and mail are set up; flags and public URLs only, never keys or secrets) and the
 * owner's settings (Admin → Settings).
 */
export const GET = endpoint({ auth: 'admin' }, (): AdminSettingsDto => {
  const e = env();
  const site = getPublishedSite(getDb());
  return {
    analyticsConfigured: Boolean(site.analyticsId),
    analyticsDashboardUrl: e.ANALYTICS_DASHBOARD_URL ?? null,
    podcastOwnerEmailConfigured: podcastOwnerEmail(site) !== null,
    mailConfigured: mailConfigured(),
    ...settingsAnswer(getDb()),
  };
});

/** Changes some settings; answers the settings now in force. */
export const PUT = endpoint({ auth: 'admin', changesContent: false, body: SettingsPatchSchema }, ({ body }) => updateSettings(getDb(), body));
