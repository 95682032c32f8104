// One person's page (status, tags, source, consent, history) and the tag calls of the list and the page.
import { API } from '#shared/api-paths.ts';
import { api } from '#lib/api-client.ts';
import type { Json } from '#shared/json.ts';
import type { PersonDto, TagDto } from '#shared/schemas/audience.ts';

/** A person as GET /api/newsletter/subscribers/{id} returns it (dates as ISO strings). */
export type Person = Json<PersonDto>;
export type Tag = TagDto;

export const personPath = (id: number | string) => API.subscriber(id);

export const addTags = (id: number, tags: string[]) => api<{ tags: string[] }>('POST', API.subscriberTags(id), { tags });
export const removeTag = (id: number, name: string) => api<{ tags: string[] }>('DELETE', API.subscriberTag(id, name));
/** Adds tags to a selection of the list; answers how many gained one. */
export const tagSelection = (ids: number[], tags: string[]) => api<{ tagged: number }>('POST', API.subscribersTags, { ids, tags });

/** Enrols a selection of the list in a sequence; answers how many were enrolled (active subscribers not in it already). */
export const enrolSelection = (sequenceId: number, ids: number[]) => api<{ enrolled: number }>('POST', API.sequenceAction(sequenceId, 'enroll'), { subscriberIds: ids });

/** 'a, b ,c' as tag names: trimmed, blanks dropped. */
export const tagNames = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** What a history entry says happened. */
export const HISTORY_LABEL: Record<Person['history'][number]['what'], string> = {
  subscribed: 'Subscribed',
  confirmed: 'Confirmed',
  imported: 'Imported',
  tagged: 'Tagged',
  untagged: 'Tag removed',
  email: 'E-mail sent',
  purchase: 'Purchase',
  booking: 'Booking',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
};
