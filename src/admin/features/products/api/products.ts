// Product calls for the admin, beside the shared schema that checks their input. Prices
// travel in cents; the form works in dollars.
import { mutate, useQuery } from '#admin/lib/query.ts';
import { ProductInputSchema, type ProductInput } from '#shared/schemas/product.ts';

export { ProductInputSchema, type ProductInput };

/** A product as the API answers it (price in cents, dates as ISO strings). */
export interface Product {
  id: number;
  name: string;
  description: string | null;
  price: number;
  stripePriceId: string | null;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

const PATH = '/api/products';

/** Every product, inactive ones included, newest first. */
export const useProducts = () => useQuery<Product[]>(PATH, 'Failed to fetch products');

export const createProduct = (input: ProductInput) => mutate<Product>('POST', PATH, input, { title: 'Error', description: 'Failed to create product. Please try again.' });

export const updateProduct = (id: number, input: ProductInput) => mutate<Product>('PUT', `${PATH}/${id}`, input, { title: 'Error', description: 'Failed to update product. Please try again.' });

export const deleteProduct = (id: number) => mutate<{ success: true }>('DELETE', `${PATH}/${id}`, undefined, { title: 'Error', description: 'Failed to delete the product. Please try again.' });

/** Dollars typed in the form to cents for the API: '49.99' -> 4999; '' -> NaN (the schema says why). */
export const dollarsToCents = (dollars: string) => (dollars.trim() === '' ? Number.NaN : Math.round(Number(dollars) * 100));

/** Cents to the form's dollars: 4999 -> '49.99'. */
export const centsToDollars = (cents: number) => (cents / 100).toFixed(2);

/** A file buyers of a product get (never its location: it is private). */
export interface ProductFile {
  id: number;
  productId: number;
  fileName: string;
  contentType: string;
  size: number;
  createdAt: string;
}

export const filesPath = (productId: number) => `${PATH}/${productId}/files`;

export const deleteProductFile = (productId: number, fileId: number) =>
  mutate<{ success: true }>('DELETE', `${filesPath(productId)}/${fileId}`, undefined, { title: 'Error', description: 'Failed to remove the file. Please try again.' });
