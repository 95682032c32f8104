import * as z from 'zod';
import { endpoint } from '#server/app/endpoint.ts';
import { receiveUpload } from '#server/media/uploads.ts';

const Params = z.object({ token: z.string().min(1).max(128) });

/**
 * The upload target: the secret in the URL is the credential (like a presigned URL), handed
 * only to an admin by POST /api/objects/upload, valid once and for 15 minutes.
 */
export const PUT = endpoint({ auth: 'public', changesContent: false, params: Params }, ({ params, request }) => receiveUpload(params.token, request));
