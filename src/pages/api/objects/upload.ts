import { endpoint } from '#server/app/endpoint.ts';
import { createUploadSlot } from '#server/media/uploads.ts';

/** A single-use upload URL (expires in 15 minutes) for one image or audio file. */
export const POST = endpoint({ auth: 'admin', changesContent: false }, ({ user }) => createUploadSlot(user.id));
