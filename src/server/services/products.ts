// Products for sale. Prices are integers in cents.
import { desc, eq } from 'drizzle-orm';
import { products } from '#db/schema/commerce.ts';
import { getDb } from '#server/context.ts';
import { removeStoredFiles } from './downloads.ts';
import { notFound } from '#server/http/errors.ts';
import type { ProductDto, ProductInput } from '#shared/schemas/product.ts';
import { nowMs } from '#db/schema/now.ts';
import type { Same } from '#shared/json.ts';

export type Product = typeof products.$inferSelect;
// The API answers rows as they are: the table and ProductDto must list the same fields.
void (true satisfies Same<Product, ProductDto>);

export function listProducts({ activeOnly = false }: { activeOnly?: boolean } = {}): Product[] {
  return getDb()
    .select()
    .from(products)
    .where(activeOnly ? eq(products.isActive, true) : undefined)
    .orderBy(desc(products.createdAt), desc(products.id))
    .all();
}

export function getProductById(id: number): Product | undefined {
  return getDb().select().from(products).where(eq(products.id, id)).get();
}

export function createProduct(input: ProductInput): Product {
  return getDb().insert(products).values(input).returning().get();
}

export function updateProduct(id: number, input: ProductInput): Product {
  const row = getDb()
    .update(products)
    .set({ ...input, updatedAt: nowMs })
    .where(eq(products.id, id))
    .returning()
    .get();
  if (!row) throw notFound('Product not found');
  return row;
}

export function deleteProduct(id: number): void {
  const removeFiles = removeStoredFiles(id);
  const result = getDb().delete(products).where(eq(products.id, id)).run();
  if (result.changes === 0) throw notFound('Product not found');
  removeFiles();
}
