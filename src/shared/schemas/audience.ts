// Tags, segments and the person page: what the admin sends and what it reads back.
import * as z from 'zod';
import type { SubscriberDto } from './newsletter.ts';

export const TAG_NAME_MESSAGE = 'A tag is 1 to 100 characters';

/** A tag's name: 1 to 100 characters once trimmed. */
export const TagNameSchema = z.string({ error: TAG_NAME_MESSAGE }).trim().min(1, TAG_NAME_MESSAGE).max(100, TAG_NAME_MESSAGE);

const tagList = z.array(TagNameSchema, { error: 'tags must be a list of names' }).max(50, 'At most 50 tags at a time');

/** Tags to add to one subscriber. */
export const TagsInputSchema = z.object({ tags: tagList.min(1, 'Name at least one tag') });
export type TagsInput = z.infer<typeof TagsInputSchema>;

/** Tags to add to a selection of the list (up to 1,000 subscribers at a time). */
export const BulkTagsInputSchema = z.object({
  ids: z
    .array(z.number({ error: 'ids must be subscriber ids' }).int('ids must be subscriber ids').positive('ids must be subscriber ids'), { error: 'ids must be a list of subscriber ids' })
    .min(1, 'Choose at least one subscriber')
    .max(1000, 'At most 1,000 subscribers at a time'),
  tags: tagList.min(1, 'Name at least one tag'),
});
export type BulkTagsInput = z.infer<typeof BulkTagsInputSchema>;

/** The tag named in `DELETE /api/admin/subscribers/{id}/tags/{name}`. */
export const SubscriberTagParamsSchema = z.object({ id: z.coerce.number({ error: 'Not found' }).int('Not found').positive('Not found'), name: TagNameSchema });

export interface TagDto {
  name: string;
  /** How many subscribers hold it, whatever their status. */
  subscribers: number;
}

const dateRule = (label: string) => z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: `${label} must be a date (YYYY-MM-DD) or a date and time with its time zone` }).optional();

/**
 * A segment's rules; every rule given must hold. `customer` / `client`: true for those tagged
 * `customer` / `client` (added automatically when they buy a product / a package), false for
 * those without.
 */
export const SegmentMatchSchema = z.strictObject(
  {
    tagsAny: tagList.optional(),
    tagsAll: tagList.optional(),
    tagsNone: tagList.optional(),
    sources: z
      .array(z.string({ error: 'sources must be a list of text' }).trim().min(1, 'A source is 1 to 255 characters').max(255, 'A source is 1 to 255 characters'))
      .max(50)
      .optional(),
    subscribedAfter: dateRule('subscribedAfter'),
    subscribedBefore: dateRule('subscribedBefore'),
    customer: z.boolean({ error: 'customer must be true or false' }).optional(),
    client: z.boolean({ error: 'client must be true or false' }).optional(),
  },
  { error: 'match must be an object of rules (tagsAny, tagsAll, tagsNone, sources, subscribedAfter, subscribedBefore, customer, client)' },
);
export type SegmentMatch = z.infer<typeof SegmentMatchSchema>;

export const SegmentInputSchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
  match: SegmentMatchSchema,
});
export type SegmentInput = z.infer<typeof SegmentInputSchema>;

export const SegmentCountSchema = z.object({ match: SegmentMatchSchema });

export interface SegmentDto {
  id: number;
  name: string;
  match: SegmentMatch;
  /** Active subscribers matching it now: the people a broadcast to it would reach. */
  count: number;
}

/** What happened to a person, oldest first. */
export type HistoryWhat = 'subscribed' | 'confirmed' | 'imported' | 'tagged' | 'untagged' | 'email' | 'purchase' | 'booking' | 'unsubscribed' | 'bounced';

export interface HistoryItemDto {
  at: Date;
  what: HistoryWhat;
  detail: string | null;
}

/** A consent record (which form, the page, the wording, when asked and when confirmed). */
import type { ConsentRecordDto } from './forms.ts';
import type { PersonSequenceDto } from './sequences.ts';
export type { ConsentRecordDto };

/** One person: the subscriber, their tags, source, consent and history. */
export interface PersonDto extends SubscriberDto {
  tags: string[];
  source: string | null;
  confirmedAt: Date | null;
  consent: ConsentRecordDto[];
  history: HistoryItemDto[];
  /** The sequences they are or were in, with the steps sent to them. */
  sequences: PersonSequenceDto[];
}
