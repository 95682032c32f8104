import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { personOf } from '#server/audience/person.ts';
import { issuesSentTo } from '#server/broadcasts/service.ts';
import { sequencesOf } from '#server/sequences/service.ts';
import { deleteSubscriber } from '#server/newsletter/subscribers.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** One person: status, tags, source, consent, history (the issues sent to them included) and sequences. */
export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => {
  const db = getDb();
  return { ...personOf(db, params.id, issuesSentTo(db, params.id)), sequences: sequencesOf(db, params.id) };
});

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => {
  deleteSubscriber(params.id);
  return { success: true };
});
