import { endpoint } from '#server/app/endpoint.ts';
import { notFound } from '#server/http/errors.ts';
import { deleteProduct, getProductById, updateProduct } from '#server/commerce/products.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import { ProductInputSchema } from '#shared/schemas/product.ts';

/**
 * Public for an active product; an inactive one is an admin's only (anyone else gets the same
 * 404 as for a missing id, since ids are sequential). The checkout page tells the two apart on
 * the server.
 */
export const GET = endpoint({ auth: 'public', params: IdParamsSchema }, ({ params, user }) => {
  const product = getProductById(params.id);
  if (!product || (!product.isActive && !user?.isAdmin)) throw notFound('Product not found');
  return product;
});

// No cached page shows products (checkout pages are never cached).
export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: ProductInputSchema, changesContent: false }, ({ params, body }) => updateProduct(params.id, body));

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => {
  deleteProduct(params.id);
  return { success: true };
});
