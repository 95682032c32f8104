// The owner's settings: stored values over the defaults. A notification an environment
// variable switches off (NOTIFY_COMMENTS=false, ...) stays off whatever is stored.
import { sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { siteSettings } from '#db/schema/settings.ts';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings, type SettingsAnswer } from '#shared/schemas/settings.ts';
import { env } from '#server/env.ts';

type Reader = Pick<Db, 'select'>;

function lockedOff(): SettingsAnswer['lockedOff'] {
  const e = env();
  return { notifyComments: !e.NOTIFY_COMMENTS, notifyRegistrations: !e.NOTIFY_REGISTRATIONS, notifyApprovals: !e.NOTIFY_APPROVALS };
}

/** The settings in force: each stored value that is still valid, else its default. */
export function getSettings(db: Reader): Settings {
  const stored: Record<string, unknown> = {};
  for (const row of db.select().from(siteSettings).all()) stored[row.key] = row.value;
  const settings = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    const one = SettingsSchema.shape[key].safeParse(stored[key]);
    if (one.success) (settings as Record<string, unknown>)[key] = one.data;
  }
  const off = lockedOff();
  for (const key of Object.keys(off) as (keyof typeof off)[]) if (off[key]) settings[key] = false;
  return settings;
}

export const settingsAnswer = (db: Reader): SettingsAnswer => ({ settings: getSettings(db), lockedOff: lockedOff() });

/** Stores the given settings (the others keep theirs) and answers what is now in force. */
export function updateSettings(db: Db, patch: { [K in keyof Settings]?: Settings[K] | undefined }): SettingsAnswer {
  db.transaction((tx) => {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      tx.insert(siteSettings)
        .values({ key, value })
        .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: sql`(cast(unixepoch('subsec') * 1000 as integer))` } })
        .run();
    }
  });
  return settingsAnswer(db);
}
