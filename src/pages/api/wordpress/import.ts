import { endpoint } from '#server/http/endpoint.ts';
import { importWordPress, readWxrUpload } from '#server/services/wordpress-import.ts';

/** Imports the posts of a WordPress export (multipart field `file`, .xml, up to 10 MB). */
export const POST = endpoint({ auth: 'admin' }, async ({ request, user }) => importWordPress(await readWxrUpload(request), user.id));
