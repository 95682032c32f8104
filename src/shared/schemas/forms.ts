// Sign-up forms: what Admin → Forms sends, what the API answers, and the wording a sign-up
// records as shown.
import * as z from 'zod';
import { optionalText } from './common.ts';

/** The form's address is /f/{slug}; also the `source` of the subscribers who come through it. */
export const FORM_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const FORM_SLUG_MAX = 60;

export const FormSlugSchema = z
  .string({ error: 'Slug is required' })
  .trim()
  .min(1, 'Slug is required')
  .max(FORM_SLUG_MAX, `Slug must be at most ${FORM_SLUG_MAX} characters`)
  .regex(FORM_SLUG, 'Slug may contain only lowercase letters, digits and single dashes');

/** A tag's name: 1 to 100 characters. */
export const TagNameSchema = z.string({ error: 'A tag name must be text' }).trim().min(1, 'A tag name cannot be empty').max(100, 'A tag name must be at most 100 characters');

export const FormInputSchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(255, 'Name must be at most 255 characters'),
  slug: FormSlugSchema,
  heading: optionalText(200, 'Heading must be at most 200 characters'),
  text: optionalText(2000, 'Text must be at most 2000 characters'),
  buttonLabel: optionalText(60, 'Button label must be at most 60 characters'),
  tags: z
    .array(TagNameSchema, { error: 'Tags must be a list of names' })
    .max(20, 'At most 20 tags')
    .nullish()
    .transform((v) => [...new Map((v ?? []).map((t) => [t.toLowerCase(), t])).values()]),
  incentiveProductId: z
    .number({ error: 'Incentive product must be a product id' })
    .int('Incentive product must be a product id')
    .positive('Incentive product must be a product id')
    .nullish()
    .transform((v) => v ?? null),
  thankYou: optionalText(1000, 'Thank-you message must be at most 1000 characters'),
});
export type FormInput = z.infer<typeof FormInputSchema>;

/** The words a visitor saw when signing up, kept in their consent record. */
export interface FormWording {
  heading: string;
  text: string;
  button: string;
}

export interface FormDto {
  id: number;
  name: string;
  slug: string;
  heading: string | null;
  text: string | null;
  buttonLabel: string | null;
  tags: string[];
  incentiveProductId: number | null;
  /** The incentive product's name (null without one). */
  incentiveProductName: string | null;
  thankYou: string | null;
  /** People who confirmed a sign-up through this form. */
  confirmed: number;
  /** Of those, how many have not been sent its current incentive (0 without one). */
  withoutIncentive: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Sending a form's free download by hand: to one subscriber again (`subscriberId`), or to
 * everyone who confirmed through the form and never got it (an incentive added later).
 */
export const SendIncentiveSchema = z.object({
  subscriberId: z.number({ error: 'subscriberId must be a subscriber id' }).int('subscriberId must be a subscriber id').positive('subscriberId must be a subscriber id').optional(),
});
export type SendIncentiveInput = z.infer<typeof SendIncentiveSchema>;

/** How many e-mails with the download were queued. */
export interface SendIncentiveDto {
  sent: number;
}

/** One consent record, as the person's page and their data export show it. */
export interface ConsentRecordDto {
  form: string | null;
  page: string | null;
  wording: FormWording;
  askedAt: Date;
  confirmedAt: Date | null;
}
