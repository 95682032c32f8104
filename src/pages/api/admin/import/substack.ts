import { endpoint } from '#server/app/endpoint.ts';
import { importPublication, readPublicationUpload } from '#server/migration/publication-import.ts';

/** Imports a Substack export (multipart field `file`, .zip) and answers its counts and report when it is over. */
export const POST = endpoint({ auth: 'admin' }, async ({ request, user }) => importPublication(await readPublicationUpload(request, 'substack'), user.id));
