import { endpoint, json } from '#server/app/endpoint.ts';
import { createProduct, listProducts } from '#server/commerce/products.ts';
import { ProductInputSchema } from '#shared/schemas/product.ts';

/** Active products for everyone; admins see inactive ones too. */
export const GET = endpoint({ auth: 'public' }, ({ user }) => listProducts({ activeOnly: !user?.isAdmin }));

// No cached page shows products (checkout pages are never cached).
export const POST = endpoint({ auth: 'admin', body: ProductInputSchema, changesContent: false }, ({ body }) => json(createProduct(body), 201));
