import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { createSegment, listSegments } from '#server/audience/segments.ts';
import { SegmentInputSchema } from '#shared/schemas/audience.ts';

/** Every segment, A to Z, each with its count of active subscribers now. */
export const GET = endpoint({ auth: 'admin' }, () => listSegments(getDb()));

/** A new segment: 201 with its id and count. */
export const POST = endpoint({ auth: 'admin', body: SegmentInputSchema, changesContent: false }, ({ body }) => {
  const segment = createSegment(getDb(), body);
  return Response.json(segment, { status: 201 });
});
