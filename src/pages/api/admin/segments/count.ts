import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { countMatching } from '#server/audience/segments.ts';
import { SegmentCountSchema } from '#shared/schemas/audience.ts';

/** How many active subscribers rules not yet saved match now (the count shown while they are edited). */
export const POST = endpoint({ auth: 'admin', body: SegmentCountSchema, changesContent: false }, ({ body }) => ({ count: countMatching(getDb(), body.match) }));
