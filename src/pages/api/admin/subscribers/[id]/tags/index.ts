import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { tagSubscriber } from '#server/audience/tags.ts';
import { TagsInputSchema } from '#shared/schemas/audience.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Adds tags to a subscriber (each new one in their history); answers their tags. */
export const POST = endpoint({ auth: 'admin', params: IdParamsSchema, body: TagsInputSchema, changesContent: false }, ({ params, body }) => tagSubscriber(getDb(), params.id, body.tags));
