import * as z from 'zod';
import { endpoint } from '#server/app/endpoint.ts';
import { deleteProductFile } from '#server/commerce/downloads.ts';

const Params = z.object({ id: z.coerce.number({ error: 'Not found' }).int('Not found').positive('Not found'), fileId: z.coerce.number({ error: 'Not found' }).int('Not found').positive('Not found') });

/** Admin: removes a product's file; the download links already given for it stop working. */
export const DELETE = endpoint({ auth: 'admin', changesContent: false, params: Params }, ({ params }) => {
  deleteProductFile(params.id, params.fileId);
  return { success: true };
});
