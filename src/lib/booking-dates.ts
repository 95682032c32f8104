// The first date the booking form shows when its zone changes (the visitor's own, or one they
// pick). A page of later dates stays where it is; the first page (today in the zone it was made
// for) becomes today in the new zone: a visitor whose date is behind the owner's still sees the
// owner's hours left today, and one ahead does not start on a day already over for them.
import { dateInZone } from '#shared/time.ts';

export function firstDateIn(zone: string, shownFrom: string, shownToday: string, now = Date.now()): string {
  return shownFrom === shownToday ? dateInZone(now, zone) : shownFrom;
}
