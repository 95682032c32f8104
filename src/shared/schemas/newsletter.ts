import * as z from 'zod';
import { BotFieldsSchema } from './common.ts';
import { PageQuerySchema, type PageDto } from './paging.ts';

export const SubscribeSchema = BotFieldsSchema.extend({
  email: z.string({ error: 'Valid email is required' }).trim().toLowerCase().max(255, 'Email too long').pipe(z.email('Valid email is required')),
  name: z
    .string()
    .trim()
    .max(255, 'Name too long')
    .nullish()
    .transform((v) => (v ? v : null)),
  /** The sign-up form's slug (Admin → Forms); absent for the site's generic form. */
  form: z
    .string({ error: 'form must be a form slug' })
    .trim()
    .max(60, 'This sign-up form no longer exists')
    .optional()
    .transform((v) => v || undefined),
  /** The page the form was on (its path), for the consent record. */
  page: z
    .string({ error: 'page must be a path' })
    .trim()
    .max(500, 'page must be at most 500 characters')
    .optional()
    .transform((v) => v || undefined),
});
export type SubscribeInput = z.infer<typeof SubscribeSchema>;

/**
 * Where a subscriber stands: pending (a confirmation e-mail is out), active (gets issues),
 * unsubscribed (left, or no longer on the list), or bounced (their mailbox refused mail for good).
 */
export type SubscriberStatus = 'pending' | 'active' | 'unsubscribed' | 'bounced';

/** A subscriber as the admin sees it: no tokens. */
export interface SubscriberDto {
  id: number;
  email: string;
  name: string | null;
  /** The id at the e-mail service (Kit, formerly ConvertKit); null until synced. */
  convertKitId: string | null;
  /** True exactly when `status` is 'active': the address gets issues. */
  isActive: boolean;
  status: SubscriberStatus;
  subscribedAt: Date;
  /** Tag names, A to Z. */
  tags: string[];
  /** How the address came: a form's slug, `import:<name>`, `checkout`, `booking`, `site`; null when not known. */
  source: string | null;
}

/**
 * GET /api/newsletter/subscribers with any of these answers one page (SubscriberPageDto);
 * without them, the whole list.
 */
export const SubscriberPageQuerySchema = PageQuerySchema.extend({
  /** Where "this month" starts for the stat card (the admin's calendar). */
  since: z.coerce.date({ error: 'since must be a date' }).optional(),
  /** Only subscribers holding this tag (whatever its case). */
  tag: z.string({ error: 'tag must be text' }).trim().min(1, 'A tag is 1 to 100 characters').max(100, 'A tag is 1 to 100 characters').optional(),
});
export type SubscriberPageQuery = z.infer<typeof SubscriberPageQuerySchema>;

export interface SubscriberStatsDto {
  total: number;
  /** The same count as the send dialog's audience. */
  active: number;
  pending: number;
  unsubscribed: number;
  bounced: number;
  synced: number;
  /** Whole percent of subscribers synced to the e-mail service; 0 when there are none. */
  syncRate: number;
  thisMonth: number;
}

export type SubscriberPageDto = PageDto<SubscriberDto, SubscriberStatsDto>;
