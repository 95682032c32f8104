// The owner's booking settings (one row) and the signed link a booking is managed by.
import { eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { bookingSettings, type bookings } from '#db/schema/booking.ts';
import { env } from '#server/env.ts';
import { signature, validSignature } from '#server/http/signing.ts';

type Settings = typeof bookingSettings.$inferSelect;

export function bookingSettingsOf(db: Pick<Db, 'select'>): Settings {
  const row = db.select().from(bookingSettings).where(eq(bookingSettings.id, 1)).get();
  if (!row) throw new Error('booking_settings has no row: run the migrations');
  return row;
}

/** The zone the owner's hours are in: set in Admin → Booking, else SITE_TIMEZONE. */
export const ownerTimeZone = (settings: Pick<Settings, 'timeZone'>) => settings.timeZone ?? env().SITE_TIMEZONE;

type Ref = Pick<typeof bookings.$inferSelect, 'id' | 'uid'>;

/** The signed link a booking is managed by (reschedule, cancel), with no login. */
export const manageUrl = (b: Ref) => `${env().SITE_URL}/book/manage/${b.id}?t=${signature('booking-manage', `${b.id}:${b.uid}`)}`;

export const validManageToken = (b: Ref, token: string | null | undefined) => validSignature('booking-manage', `${b.id}:${b.uid}`, token);
