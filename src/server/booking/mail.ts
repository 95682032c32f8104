// The e-mails of a booking, written to the outbox in the booking's own transaction: to the visitor
// (times in their zone, with the links to reschedule or cancel) and to the owner (times in
// theirs, with the answers), each with the calendar invite: METHOD:REQUEST when booked or moved
// (same UID, higher SEQUENCE), METHOD:CANCEL when cancelled. Reminders carry no invite.
import type { Db } from '#db/client.ts';
import type { bookingEventTypes, bookings } from '#db/schema/booking.ts';
import { env } from '#server/env.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { ownerAddresses } from '#server/accounts/notify.ts';
import { fromAddress } from '#server/mail/sender.ts';
import { mailFrom } from '#server/site/mail.ts';
import { layout } from '#server/site/mail.ts';
import { publishedBrand } from '#server/site/current.ts';
import { inviteFor, type InviteEvent } from './invite.ts';
import { bookingSettingsOf, manageUrl, ownerTimeZone } from './settings.ts';

type Tx = Pick<Db, 'insert' | 'select'>;
type Booking = typeof bookings.$inferSelect;
type EventType = typeof bookingEventTypes.$inferSelect;

/** 'Tuesday, December 1, 2026, 9:00 AM – 9:30 AM (Europe/Berlin)' */
export function when(b: Pick<Booking, 'start' | 'end'>, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(b.start);
  const time = (d: Date) => new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' }).format(d);
  return `${day}, ${time(b.start)} – ${time(b.end)} (${timeZone})`;
}

/** The ORGANIZER of every invite: the owner's first address, else the sender's. */
export const organizerAddress = (owners: string[]) => owners[0] ?? fromAddress(mailFrom(env()));

/** The event as calendars get it. */
export function inviteEvent(organizer: string, b: Booking, type: EventType, manage: string): InviteEvent {
  const brand = publishedBrand();
  return {
    uid: b.uid,
    sequence: b.sequence,
    start: b.start,
    end: b.end,
    summary: `${type.name} with ${brand.name}`,
    description: [type.description, `Reschedule or cancel: ${manage}`].filter(Boolean).join('\n\n'),
    location: type.location,
    url: manage,
    organizer: { name: brand.name, email: organizer },
    attendee: { name: b.name, email: b.email },
    cancelled: b.status === 'cancelled',
    stamp: b.updatedAt,
  };
}

export type BookingMailKind = 'booked' | 'moved' | 'cancelled';

/** Writes the visitor's and the owner's e-mails for what just happened to a booking. */
export function bookingMails(tx: Tx, kind: BookingMailKind, b: Booking, type: EventType, extra: { previousStart?: Date } = {}): void {
  const manage = manageUrl(b);
  const owners = ownerAddresses(tx);
  const calendar = inviteFor(inviteEvent(organizerAddress(owners), b, type, manage));
  const brand = publishedBrand();
  const visitorWhen = when(b, b.timeZone);
  const where = type.location ? [`Where: ${type.location}`] : [];
  const visitor = {
    booked: {
      subject: `Confirmed: ${type.name} on ${visitorWhen}`,
      heading: `Your ${type.name} is booked`,
      paragraphs: [`Hi ${b.name}, you are booked with ${brand.name}.`, `When: ${visitorWhen}`, ...where, 'The invite is attached: add it to your calendar.'],
    },
    moved: {
      subject: `Moved: ${type.name} to ${visitorWhen}`,
      heading: `Your ${type.name} has moved`,
      paragraphs: [`Hi ${b.name}, your ${type.name} with ${brand.name} has moved.`, `New time: ${visitorWhen}`, ...where, 'Your calendar updates with the attached invite.'],
    },
    cancelled: {
      subject: `Cancelled: ${type.name} on ${visitorWhen}`,
      heading: `Your ${type.name} is cancelled`,
      paragraphs: [
        `Hi ${b.name}, your ${type.name} with ${brand.name} on ${visitorWhen} is cancelled.`,
        ...(b.cancelledBy === 'owner' && b.cancelReason ? [`Message from ${brand.name}: ${b.cancelReason}`] : []),
        `You can book another time at ${env().SITE_URL}/book.`,
      ],
    },
  }[kind];
  const links = kind === 'cancelled' ? [] : [{ label: 'Reschedule or cancel', url: manage }];
  enqueueMail(tx, { kind: `booking-${kind}`, to: b.email, subject: visitor.subject, ...layout({ heading: visitor.heading, paragraphs: visitor.paragraphs, links }), calendar });

  const ownerZone = ownerTimeZone(bookingSettingsOf(tx));
  const answers = type.questions.filter((q) => b.answers[q.id]).map((q) => `${q.label} ${b.answers[q.id]}`);
  const ownerText = {
    booked: { subject: `New booking: ${b.name}, ${type.name} on ${when(b, ownerZone)}`, heading: 'New booking' },
    moved: { subject: `Moved: ${b.name}, ${type.name} to ${when(b, ownerZone)}`, heading: 'A booking has moved' },
    cancelled: { subject: `Cancelled: ${b.name}, ${type.name} on ${when(b, ownerZone)}`, heading: 'A booking was cancelled' },
  }[kind];
  const paragraphs = [
    `${b.name} <${b.email}>`,
    `When: ${when(b, ownerZone)}`,
    ...(extra.previousStart ? [`Was: ${when({ start: extra.previousStart, end: new Date(extra.previousStart.getTime() + (b.end.getTime() - b.start.getTime())) }, ownerZone)}`] : []),
    ...answers,
    ...(kind === 'cancelled' ? [`Cancelled by ${b.cancelledBy === 'owner' ? 'you' : 'the visitor'}.`] : []),
  ];
  for (const to of owners) {
    enqueueMail(tx, {
      kind: `booking-${kind}-owner`,
      to,
      subject: ownerText.subject,
      ...layout({ heading: ownerText.heading, paragraphs, action: { label: 'Open Admin → Booking', url: `${env().SITE_URL}/admin/booking` } }),
      calendar,
    });
  }
}

/** The reminder before a booking (no invite: the calendar has the event already). */
export function reminderMail(b: Booking, type: EventType): { subject: string; text: string; html: string } {
  const brand = publishedBrand();
  const whenText = when(b, b.timeZone);
  return {
    subject: `Reminder: ${type.name} on ${whenText}`,
    ...layout({
      heading: `Your ${type.name} is coming up`,
      paragraphs: [`Hi ${b.name}, a reminder of your ${type.name} with ${brand.name}.`, `When: ${whenText}`, ...(type.location ? [`Where: ${type.location}`] : [])],
      links: [{ label: 'Reschedule or cancel', url: manageUrl(b) }],
    }),
  };
}
