import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { untagSubscriber } from '#server/audience/tags.ts';
import { SubscriberTagParamsSchema } from '#shared/schemas/audience.ts';

/** Removes a tag from a subscriber (recorded in their history when they had it); answers their tags. */
export const DELETE = endpoint({ auth: 'admin', params: SubscriberTagParamsSchema, changesContent: false }, ({ params }) => untagSubscriber(getDb(), params.id, params.name));
