import { endpoint } from '#server/http/endpoint.ts';
import { notFound } from '#server/http/errors.ts';
import { deleteProduct, getProductById, updateProduct } from '#server/services/products.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import { ProductInputSchema } from '#shared/schemas/product.ts';

/** Public: checkout needs to tell an inactive product ('Product Unavailable') from a missing one. */
export const GET = endpoint({ auth: 'public', params: IdParamsSchema }, ({ params }) => {
  const product = getProductById(params.id);
  if (!product) throw notFound('Product not found');
  return product;
});

// No cached page shows products (checkout pages are never cached).
export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: ProductInputSchema, changesContent: false }, ({ params, body }) => updateProduct(params.id, body));

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => {
  deleteProduct(params.id);
  return { success: true };
});
