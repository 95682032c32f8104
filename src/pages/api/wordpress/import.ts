import { endpoint } from '#server/app/endpoint.ts';
import { importWordPress, latestImportRun, readWxrUpload } from '#server/migration/wordpress/run.ts';

/** Imports a WordPress export (multipart field `file`, .xml) and answers its counts when it is over. */
export const POST = endpoint({ auth: 'admin' }, async ({ request, user }) => importWordPress(await readWxrUpload(request), user.id));

/** The latest import: its progress while it runs, its counts after. */
export const GET = endpoint({ auth: 'admin' }, () => latestImportRun());
