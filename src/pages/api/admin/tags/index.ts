import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { listTags } from '#server/audience/tags.ts';

/** Every tag, A to Z, with how many subscribers hold it. */
export const GET = endpoint({ auth: 'admin' }, () => listTags(getDb()));
