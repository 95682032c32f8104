import { endpoint } from '@/server/http/endpoint';
import { createUploadSlot } from '@/server/services/uploads';

/** A single-use upload URL (expires in 15 minutes) for one image or audio file. */
export const POST = endpoint({ auth: 'admin', changesContent: false }, ({ user }) => createUploadSlot(user.id));
