import { getDb } from '#server/context.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { listSiteRevisions } from '#server/site/document.ts';

/** Every publish, newest first: when, who, and which parts it changed. */
export const GET = endpoint({ auth: 'admin' }, () => listSiteRevisions(getDb()));
