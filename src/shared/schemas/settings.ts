// What the owner sets in Admin → Settings: which e-mails the site sends them and its users,
// and how long and how often a buyer's download link works.
import * as z from 'zod';

export const SettingsSchema = z.object({
  notifyComments: z.boolean({ error: 'Must be on or off' }),
  notifyRegistrations: z.boolean({ error: 'Must be on or off' }),
  notifyApprovals: z.boolean({ error: 'Must be on or off' }),
  downloadDays: z
    .number({ error: 'Days must be a whole number from 1 to 365' })
    .int('Days must be a whole number from 1 to 365')
    .min(1, 'Days must be a whole number from 1 to 365')
    .max(365, 'Days must be a whole number from 1 to 365'),
  downloadLimit: z
    .number({ error: 'Downloads must be a whole number from 1 to 100' })
    .int('Downloads must be a whole number from 1 to 100')
    .min(1, 'Downloads must be a whole number from 1 to 100')
    .max(100, 'Downloads must be a whole number from 1 to 100'),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** A change to some settings; the others keep their values. */
export const SettingsPatchSchema = SettingsSchema.partial().strict();

export const DEFAULT_SETTINGS: Settings = { notifyComments: true, notifyRegistrations: true, notifyApprovals: true, downloadDays: 7, downloadLimit: 5 };

/** Which notification settings an environment variable has switched off for good. */
export interface SettingsAnswer {
  settings: Settings;
  lockedOff: { notifyComments: boolean; notifyRegistrations: boolean; notifyApprovals: boolean };
}

/** What GET /api/admin/settings answers: configuration flags (never secrets) and the settings. */
export interface AdminSettingsDto extends SettingsAnswer {
  analyticsConfigured: boolean;
  analyticsDashboardUrl: string | null;
  podcastOwnerEmailConfigured: boolean;
  mailConfigured: boolean;
}
