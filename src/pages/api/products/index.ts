import { endpoint, json } from '@/server/http/endpoint';
import { createProduct, listProducts } from '@/server/services/products';
import { ProductInputSchema } from '@/shared/schemas/product';

/** Active products for everyone; admins see inactive ones too. */
export const GET = endpoint({ auth: 'public' }, ({ user }) => listProducts({ activeOnly: !user?.isAdmin }));

export const POST = endpoint({ auth: 'admin', body: ProductInputSchema }, ({ body }) => json(createProduct(body), 201));
