import { endpoint, json } from '#server/http/endpoint.ts';
import { createProduct, listProducts } from '#server/services/products.ts';
import { ProductInputSchema } from '#shared/schemas/product.ts';

/** Active products for everyone; admins see inactive ones too. */
export const GET = endpoint({ auth: 'public' }, ({ user }) => listProducts({ activeOnly: !user?.isAdmin }));

export const POST = endpoint({ auth: 'admin', body: ProductInputSchema }, ({ body }) => json(createProduct(body), 201));
