import { endpoint } from '#server/app/endpoint.ts';
import { importPublication, readPublicationUpload } from '#server/migration/publication-import.ts';

/** Imports a Ghost export (multipart field `file`, .json; optional `siteUrl`) and answers its counts and report when it is over. */
export const POST = endpoint({ auth: 'admin' }, async ({ request, user }) => importPublication(await readPublicationUpload(request, 'ghost'), user.id));
