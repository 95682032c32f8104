import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { tagSelection } from '#server/audience/tags.ts';
import { BulkTagsInputSchema } from '#shared/schemas/audience.ts';

/** Adds tags to a selection of the list (`ids`, up to 1,000), all or nothing; answers how many gained a tag. */
export const POST = endpoint({ auth: 'admin', body: BulkTagsInputSchema, changesContent: false }, ({ body }) => tagSelection(getDb(), body.ids, body.tags));
