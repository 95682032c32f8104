import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { deleteSegment, getSegment, updateSegment } from '#server/audience/segments.ts';
import { SegmentInputSchema } from '#shared/schemas/audience.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** A segment with its rules and its count of active subscribers now. */
export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => getSegment(getDb(), params.id));

export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: SegmentInputSchema, changesContent: false }, ({ params, body }) => updateSegment(getDb(), params.id, body));

/** Deletes a segment; 409 while an unsent or sending issue is addressed to it. */
export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => {
  deleteSegment(getDb(), params.id);
  return { success: true };
});
