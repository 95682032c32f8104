// Sequences (drip e-mails): what the owner writes (a sequence, its steps) and what the admin
// shows of it (the steps and the report).
import * as z from 'zod';
import { EmailContentShape } from './broadcast.ts';

export const TRIGGER_TYPES = ['confirmed', 'form', 'tag', 'purchase', 'booking', 'manual'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
export const DELAY_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type DelayUnit = (typeof DELAY_UNITS)[number];
export const UNIT_SECONDS: Record<DelayUnit, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 };

const tagName = z.string({ error: 'Exit tags must be tag names' }).trim().min(1, 'Exit tags must not be empty').max(100, 'A tag name must be at most 100 characters');

export const SequenceTriggerSchema = z.object(
  {
    type: z.enum(TRIGGER_TYPES, { error: `Trigger type must be one of ${TRIGGER_TYPES.join(', ')}` }),
    value: z
      .string({ error: 'Trigger value must be text' })
      .trim()
      .max(200, 'Trigger value must be at most 200 characters')
      .nullish()
      .transform((v) => v || null),
  },
  { error: 'Trigger is required' },
);

export const SequenceInputSchema = z
  .object({
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
    trigger: SequenceTriggerSchema,
    exitTags: z.array(tagName, { error: 'Exit tags must be a list of tag names' }).max(50, 'At most 50 exit tags').optional().default([]),
    /** A purchase (any product or package) ends the enrolment. */
    exitOnPurchase: z.boolean({ error: 'exitOnPurchase must be true or false' }).optional().default(false),
    /** A booked call ends the enrolment. */
    exitOnBooking: z.boolean({ error: 'exitOnBooking must be true or false' }).optional().default(false),
    /** A person may go through it again after finishing or leaving it. */
    allowReentry: z.boolean({ error: 'allowReentry must be true or false' }).optional().default(false),
  })
  .superRefine((v, ctx) => {
    if ((v.trigger.type === 'form' || v.trigger.type === 'tag') && !v.trigger.value)
      ctx.addIssue({ code: 'custom', path: ['trigger', 'value'], message: v.trigger.type === 'form' ? "A form trigger needs the form's slug" : "A tag trigger needs the tag's name" });
  });
export type SequenceInput = z.infer<typeof SequenceInputSchema>;

export const SendingWindowSchema = z
  .object(
    {
      /** Days of the week it may go on, Sunday 0 to Saturday 6. */
      days: z
        .array(
          z
            .number({ error: 'Window days must be numbers from 0 (Sunday) to 6 (Saturday)' })
            .int('Window days must be whole numbers')
            .min(0, 'Window days run from 0 (Sunday) to 6 (Saturday)')
            .max(6, 'Window days run from 0 (Sunday) to 6 (Saturday)'),
          { error: 'Window days must be a list' },
        )
        .min(1, 'A sending window needs at least one day')
        .optional()
        .default([0, 1, 2, 3, 4, 5, 6]),
      /** From this hour (0-23) up to `to` (1-24), in the site's time zone. */
      from: z
        .number({ error: 'Window start must be an hour' })
        .int('Window start must be a whole hour')
        .min(0, 'Window start must be 0 to 23')
        .max(23, 'Window start must be 0 to 23')
        .optional()
        .default(0),
      to: z.number({ error: 'Window end must be an hour' }).int('Window end must be a whole hour').min(1, 'Window end must be 1 to 24').max(24, 'Window end must be 1 to 24').optional().default(24),
    },
    { error: 'Window must be an object' },
  )
  .refine((w) => w.from < w.to, { message: 'The window must end after it starts', path: ['to'] });
export type SendingWindow = z.infer<typeof SendingWindowSchema>;

export const StepInputSchema = z.object({
  ...EmailContentShape,
  delay: z.object(
    {
      amount: z.number({ error: 'Delay must be a number' }).int('Delay must be a whole number').min(0, 'Delay must not be negative').max(100_000, 'Delay is too long'),
      unit: z.enum(DELAY_UNITS, { error: `Delay unit must be one of ${DELAY_UNITS.join(', ')}` }),
    },
    { error: 'Delay is required' },
  ),
  window: SendingWindowSchema.nullish().transform((v) => v ?? null),
});
export type StepInput = z.infer<typeof StepInputSchema>;

export const EnrollInputSchema = z
  .object({
    subscriberIds: z
      .array(z.number({ error: 'Subscriber ids must be numbers' }).int('Subscriber ids must be whole numbers').positive('Subscriber ids must be positive'), {
        error: 'subscriberIds must be a list of ids',
      })
      .max(50_000, 'At most 50,000 at a time')
      .optional(),
    /** Subscribers by address, as the owner knows them. */
    emails: z
      .array(z.string({ error: 'Addresses must be text' }).trim().toLowerCase().pipe(z.email('Enter valid e-mail addresses')), { error: 'emails must be a list of addresses' })
      .max(1_000, 'At most 1,000 addresses at a time')
      .optional(),
    /** Everyone a segment matches when the enrolment is made. */
    segmentId: z.number({ error: 'Choose a segment' }).int('Choose a segment').positive('Choose a segment').optional(),
  })
  .refine((v) => (v.subscriberIds?.length ?? 0) + (v.emails?.length ?? 0) > 0 || v.segmentId !== undefined, { message: 'Choose at least one subscriber', path: ['subscriberIds'] });
export type EnrollInput = z.infer<typeof EnrollInputSchema>;

export const StepParamsSchema = z.object({ id: z.coerce.number().int().positive(), stepId: z.coerce.number().int().positive() });

export type SequenceStatus = 'active' | 'paused';

export interface SequenceStepDto {
  id: number;
  position: number;
  subject: string;
  preheader: string | null;
  content: string;
  delay: { amount: number; unit: DelayUnit };
  window: SendingWindow | null;
  /** People this step went out to. */
  sent: number;
  failed: number;
  /** People who unsubscribed after this step reached them. */
  unsubscribedAfter: number;
}

export interface SequenceReport {
  enrolled: number;
  active: number;
  completed: number;
  exited: number;
  sent: number;
  failed: number;
  /** People who unsubscribed after they were enrolled. */
  unsubscribedAfter: number;
  /** Messages in flight when the server stopped, sent again: they may have gone out twice. */
  possiblyDuplicated: number;
}

export interface SequenceSummaryDto extends SequenceReport {
  id: number;
  name: string;
  status: SequenceStatus;
  trigger: { type: TriggerType; value: string | null };
  steps: number;
}

export interface SequenceDto extends SequenceReport {
  id: number;
  name: string;
  status: SequenceStatus;
  trigger: { type: TriggerType; value: string | null };
  exitTags: string[];
  exitOnPurchase: boolean;
  exitOnBooking: boolean;
  allowReentry: boolean;
  steps: SequenceStepDto[];
  createdAt: Date;
}

/** A person's place in one sequence: shown on their page and in their copy of their data. */
export interface PersonSequenceDto {
  id: number;
  name: string;
  status: 'active' | 'completed' | 'exited';
  exitReason: string | null;
  enrolledAt: Date;
  endedAt: Date | null;
  /** The steps sent to them: each step's subject and when. */
  sent: { subject: string; sentAt: Date | null }[];
}
