import * as z from 'zod';

/** A trimmed string where '' (and absent/null) mean "no value"; stored as null. */
export const optionalText = (max: number, tooLong: string) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((v) => (v ? v : null));

/** An http(s) URL or a site-relative path (uploads are served from /uploads/...), or empty. */
export const optionalUrl = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || /^\/[^/\\]/.test(v) || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)), message);

/** A whole number from 1 up, or absent (stored as null): `label` names it in the messages, `unit` follows 'whole number'. */
export const optionalCount = (label: string, unit = '') =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number${unit}`)
    .min(1, `${label} must be at least 1`)
    .nullish()
    .transform((v) => v ?? null);

/**
 * When an item goes public by itself: an ISO 8601 date and time with its offset or Z. `null`
 * clears a schedule; absent leaves it as it is.
 */
export const scheduleTime = z.iso
  .datetime({ offset: true, error: 'Schedule time must be a date and time with its time zone' })
  .nullable()
  .transform((v) => (v === null ? null : new Date(v)))
  .optional();

/** A positive integer id taken from a route parameter. */
export const IdParamsSchema = z.object({ id: z.coerce.number({ error: 'Not found' }).int('Not found').positive('Not found') });

/**
 * Anti-spam fields public forms send: `website` is a honeypot people never see (bots fill
 * it); `elapsedMs` is how long the form was open before it was sent.
 */
export const BotFieldsSchema = z.object({ website: z.string().max(500).optional(), elapsedMs: z.number().nonnegative().optional() });
