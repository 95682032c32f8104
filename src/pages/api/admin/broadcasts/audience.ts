import { getDb } from '#server/db.ts';
import { audienceSize } from '#server/broadcasts/service.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { AudienceQuerySchema } from '#shared/schemas/broadcast.ts';

/** How many subscribers a send started now would go to (the confirm dialog's count): everyone active, or a segment's active subscribers (404 for no such segment). */
export const GET = endpoint({ auth: 'admin', query: AudienceQuerySchema }, ({ query }) => ({ count: audienceSize(getDb(), query.segmentId ?? null) }));
