// Calendar invites (RFC 5545 content, RFC 5546 methods) made with ical-generator: one event per
// booking with a stable UID, a SEQUENCE raised at each change, times in UTC, the owner as
// ORGANIZER and the visitor as ATTENDEE. A change is METHOD:REQUEST with the same UID and a higher
// SEQUENCE (calendars update the event); a cancellation is METHOD:CANCEL with STATUS:CANCELLED.
// The owner's private feed lists every booking as METHOD:PUBLISH.
import ical, { escape, ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';

export interface InviteEvent {
  uid: string;
  sequence: number;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  location: string;
  url: string;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
  cancelled: boolean;
  /** When the event last changed (DTSTAMP). */
  stamp: Date;
}

const PRODUCT = { company: 'Personal Site', product: 'Booking', language: 'EN' };

function addEvent(cal: ReturnType<typeof ical>, e: InviteEvent): void {
  cal.createEvent({
    id: e.uid,
    sequence: e.sequence,
    stamp: e.stamp,
    start: e.start,
    end: e.end,
    summary: e.summary,
    description: e.description,
    location: e.location || null,
    url: e.url,
    organizer: { name: e.organizer.name, email: e.organizer.email },
    attendees: [{ name: e.attendee.name, email: e.attendee.email, role: ICalAttendeeRole.REQ, status: e.cancelled ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.ACCEPTED, rsvp: false }],
    status: e.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
}

/** A calendar's NAME text, escaped (ical-generator writes it as given, unlike an event's SUMMARY). */
const calendarName = (name: string) => escape(name, false);

/** The invite e-mailed for a booking, its change or its cancellation. */
export function inviteFor(e: InviteEvent): { method: 'REQUEST' | 'CANCEL'; content: string } {
  const method = e.cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST;
  const cal = ical({ prodId: PRODUCT, method, name: calendarName(e.summary) });
  addEvent(cal, e);
  return { method: e.cancelled ? 'CANCEL' : 'REQUEST', content: cal.toString() };
}

/** The UID of the event an invite's content names (its lines unfolded), or null. */
export function inviteUid(content: string): string | null {
  return /^UID:(.*)$/m.exec(content.replace(/\r?\n[ \t]/g, ''))?.[1]?.trim() ?? null;
}

/** The owner's subscribed calendar: every booking, the cancelled ones marked so. */
export function bookingFeed(name: string, events: InviteEvent[]): string {
  const cal = ical({ prodId: PRODUCT, method: ICalCalendarMethod.PUBLISH, name: calendarName(name), ttl: 15 * 60 });
  for (const e of events) addEvent(cal, e);
  return cal.toString();
}
