// Product calls for the admin, beside the shared schema that checks their input. Prices
// travel in cents; the form works in dollars.
import { mutate } from '#admin/lib/query.ts';
import { resourceApi } from '#admin/lib/resource-api.ts';
import { API } from '#shared/api-paths.ts';
import type { Json } from '#shared/json.ts';
import { ProductInputSchema, type ProductDto, type ProductFileDto, type ProductInput } from '#shared/schemas/product.ts';

export { ProductInputSchema, type ProductInput };

/** A product as the API answers it (price in cents, dates as ISO strings). */
export type Product = Json<ProductDto>;

/** Every product (inactive ones included, newest first) and the writes. */
const api = resourceApi<Product, ProductInput>(API.products, API.product, { plural: 'products', singular: 'product' });
export const { useList: useProducts, create: createProduct, update: updateProduct, remove: deleteProduct } = api;

/** Dollars typed in the form to cents for the API: '49.99' -> 4999; '' -> NaN (the schema says why). */
export const dollarsToCents = (dollars: string) => (dollars.trim() === '' ? Number.NaN : Math.round(Number(dollars) * 100));

/** Cents to the form's dollars: 4999 -> '49.99'. */
export const centsToDollars = (cents: number) => (cents / 100).toFixed(2);

/** A file buyers of a product get (never its location: it is private). */
export type ProductFile = Json<ProductFileDto>;

export const filesPath = (productId: number) => API.productFiles(productId);

export const deleteProductFile = (productId: number, fileId: number) =>
  mutate<{ success: true }>('DELETE', `${filesPath(productId)}/${fileId}`, undefined, { title: 'Error', description: 'Failed to remove the file. Please try again.' });
