// Booking: what a visitor sends to book, reschedule or cancel, what the owner edits (event types
// and availability), and the answers' shapes.
import * as z from 'zod';
import { canonicalTimeZone } from '#shared/time.ts';
import { BotFieldsSchema } from './common.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar date between 2000 and 2099 (nothing is booked beyond). */
export const isDate = (v: string) => DATE.test(v) && v >= '2000-01-01' && v <= '2099-12-31' && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const dateString = (label: string) => z.string({ error: `${label} must be a date (YYYY-MM-DD)` }).refine(isDate, `${label} must be a date (YYYY-MM-DD)`);
/** A zone name, in the platform's own spelling (so 'europe/berlin' and 'Europe/Berlin' are one zone). */
const timeZone = z
  .string({ error: 'Time zone must be an IANA time zone such as Europe/Berlin' })
  .trim()
  .max(64, 'Time zone must be an IANA time zone such as Europe/Berlin')
  .transform((v, ctx) => {
    const zone = canonicalTimeZone(v);
    if (!zone) ctx.addIssue({ code: 'custom', message: 'Time zone must be an IANA time zone such as Europe/Berlin' });
    return zone ?? v;
  });

/** The most days one slots call covers. */
export const MAX_SLOT_DAYS = 62;
export const DAY_MS = 24 * 60 * 60_000;

export const SlotsQuerySchema = z
  .object({
    type: z.string({ error: 'Event type is required' }).trim().min(1, 'Event type is required').max(100),
    from: dateString('from'),
    to: dateString('to'),
    /** The zone the dates are days of (the visitor's); the owner's when absent. */
    tz: timeZone.optional(),
    /** A client's package whose sessions are booked (the signed-in client's own). */
    clientPackage: z.coerce.number({ error: 'Unknown package' }).int().positive('Unknown package').optional(),
  })
  .refine((q) => q.to >= q.from, { message: 'to must not be before from', path: ['to'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS + 1 <= MAX_SLOT_DAYS, { message: `At most ${MAX_SLOT_DAYS} days at a time`, path: ['to'] });

const email = z.string({ error: 'Valid email is required' }).trim().toLowerCase().max(254, 'Valid email is required').pipe(z.email('Valid email is required'));

/** A form post (no JavaScript) sends each answer as its own field, answer_{id}: they become `answers`. */
const foldAnswers = (input: unknown) => {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const fields = input as Record<string, unknown>;
  const flat = Object.entries(fields).filter(([k]) => k.startsWith('answer_'));
  if (flat.length === 0) return input;
  const rest = Object.fromEntries(Object.entries(fields).filter(([k]) => !k.startsWith('answer_')));
  return { ...rest, answers: { ...(rest.answers as object | undefined), ...Object.fromEntries(flat.map(([k, v]) => [k.slice('answer_'.length), v])) } };
};

export const BookingRequestSchema = z.preprocess(
  foldAnswers,
  BotFieldsSchema.extend({
    type: z.string({ error: 'Event type is required' }).trim().min(1, 'Event type is required').max(100),
    start: z.iso.datetime({ offset: true, error: 'Start must be a date and time (ISO 8601)' }),
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
    email,
    answers: z
      .record(z.string().max(64), z.string({ error: 'Answers must be text' }).max(2000, 'Answers must be at most 2,000 characters'))
      .optional()
      .default({}),
    /** The visitor's zone, for the times in their e-mails. */
    timeZone: timeZone.optional(),
    /** A session of the signed-in client's package (their own, with a session left). */
    clientPackage: z.coerce.number({ error: 'Unknown package' }).int().positive('Unknown package').optional(),
    /** The random key the booking page put in its form: the same form sent twice books once. */
    formKey: z
      .string()
      .regex(/^[\w-]{16,64}$/, 'This form is not valid: load the page again.')
      .optional(),
  }),
);
export type BookingRequest = z.infer<typeof BookingRequestSchema>;

/** A new start, and the zone the visitor chose it in (the e-mails and reminders say the time in it). */
export const RescheduleSchema = z.object({ start: z.iso.datetime({ offset: true, error: 'Start must be a date and time (ISO 8601)' }), timeZone: timeZone.optional() });

export const CancelBookingSchema = z.object({
  reason: z
    .string({ error: 'The message must be text' })
    .trim()
    .max(1000, 'The message must be at most 1,000 characters')
    .optional()
    .transform((v) => v || null),
});

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const HoursSchema = z
  .object({ start: z.string().regex(HHMM, 'Times are HH:mm'), end: z.string().regex(HHMM, 'Times are HH:mm') })
  .refine((h) => h.end > h.start, { message: 'Each period must end after it starts', path: ['end'] });

export const AvailabilitySchema = z.object({
  timeZone: timeZone.nullish().transform((v) => v ?? null),
  weekly: z.array(z.array(HoursSchema).max(6)).length(7, 'Hours are given for the seven days of the week'),
  overrides: z
    .array(z.object({ date: dateString('The date'), hours: z.array(HoursSchema).max(6) }))
    .max(366)
    .refine((o) => new Set(o.map((d) => d.date)).size === o.length, 'Each date is overridden once'),
  busyIcsUrl: z
    .string()
    .trim()
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v === null || (URL.canParse(v.replace(/^webcal:/i, 'https:')) && /^(https?|webcal):$/i.test(new URL(v).protocol)), 'The calendar address must be an http(s) or webcal URL'),
});
export type Availability = z.infer<typeof AvailabilitySchema>;

const minutes = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number of minutes`)
    .min(0, `${label} must not be negative`)
    .max(max, `${label} is too long`);

export const EventTypeInputSchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100),
  slug: z
    .string({ error: 'Slug is required' })
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Slug may contain lowercase letters, digits and dashes')
    .max(80),
  description: z.string().trim().max(2000).optional().default(''),
  durationMin: minutes('Duration', 8 * 60).min(5, 'Duration must be at least 5 minutes'),
  location: z.string().trim().max(500).optional().default(''),
  priceCents: z.number({ error: 'Price must be a number' }).int().min(0, 'Price must not be negative').max(10_000_000).optional().default(0),
  bufferBeforeMin: minutes('Buffer before', 240).optional().default(0),
  bufferAfterMin: minutes('Buffer after', 240).optional().default(0),
  minNoticeMin: minutes('Minimum notice', 60 * 24 * 90)
    .optional()
    .default(0),
  windowDays: z.number().int().min(1, 'The booking window must be at least 1 day').max(365, 'The booking window must be at most 365 days').optional().default(60),
  maxPerDay: z
    .number()
    .int()
    .min(1, 'At most per day must be at least 1')
    .max(100)
    .nullish()
    .transform((v) => v ?? null),
  stepMin: minutes('Slot step', 8 * 60)
    .min(5, 'Slot step must be at least 5 minutes')
    .optional()
    .default(30),
  questions: z
    .array(
      z.object({
        id: z
          .string()
          .trim()
          .regex(/^[a-z0-9_-]{1,64}$/i, 'Question ids are letters, digits, - and _'),
        label: z.string().trim().min(1, 'Each question needs its text').max(300),
        required: z.boolean().optional().default(false),
      }),
    )
    .max(10)
    .optional()
    .default([]),
  isActive: z.boolean().optional().default(true),
  /** Booked only by clients, from their packages (not listed at /book). */
  clientsOnly: z.boolean().optional().default(false),
});
export type EventTypeInput = z.infer<typeof EventTypeInputSchema>;

export interface EventTypeDto {
  id: number;
  slug: string;
  name: string;
  description: string;
  durationMin: number;
  location: string;
  priceCents: number;
  bufferBeforeMin: number;
  bufferAfterMin: number;
  minNoticeMin: number;
  windowDays: number;
  maxPerDay: number | null;
  stepMin: number;
  questions: { id: string; label: string; required: boolean }[];
  isActive: boolean;
  clientsOnly: boolean;
}

/** What the public sees of an event type. */
export type PublicEventTypeDto = Pick<EventTypeDto, 'slug' | 'name' | 'description' | 'durationMin' | 'priceCents' | 'questions'>;

export interface SlotDto {
  start: string;
  end: string;
}

export interface BookingDto {
  id: number;
  type: { slug: string; name: string };
  start: Date;
  end: Date;
  name: string;
  email: string;
  answers: Record<string, string>;
  timeZone: string;
  status: 'confirmed' | 'cancelled';
  noShow: boolean;
  cancelledBy: 'visitor' | 'owner' | null;
  cancelReason: string | null;
  createdAt: Date;
}

/** Admin → Booking: availability, the calendar's state, the private feed's address and every event type. */
export interface BookingAdminDto {
  timeZone: string | null;
  /** The zone in effect (the one set, else SITE_TIMEZONE). */
  effectiveTimeZone: string;
  weekly: Availability['weekly'];
  overrides: Availability['overrides'];
  busyIcsUrl: string | null;
  busyFetchedAt: Date | null;
  busyError: string | null;
  feedUrl: string;
  types: EventTypeDto[];
}
