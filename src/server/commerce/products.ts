// Products for sale. Prices are integers in cents.
import { and, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import { clientPackages } from '#db/schema/clients.ts';
import { products } from '#db/schema/commerce.ts';
import { getDb } from '#server/db.ts';
import { PRODUCT_CHECKOUTS_JOB } from './product-checkouts.ts';
import { wakeJob } from '#server/jobs/runner.ts';
import { removeStoredFiles } from './downloads.ts';
import { conflict, notFound } from '#server/http/errors.ts';
import { getDraftSite, getPublishedSite } from '#server/site/document.ts';
import { packagesOf } from '#shared/schemas/site.ts';
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
  // Its open checkouts made at other terms are closed at Stripe.
  wakeJob(PRODUCT_CHECKOUTS_JOB);
  return row;
}

export const PRODUCT_IN_PACKAGE = 'A package comes with this product: take it out of the package (Site → Work With Me) first, and wait until no client is paying for it.';

/**
 * Deletes a product and its files; 409 while a package of the site (published or draft) comes
 * with it, or a client's package still waiting for or making payments does: its payments would
 * have no product to record.
 */
export function deleteProduct(id: number): void {
  const db = getDb();
  const inDocument = [getPublishedSite(db), getDraftSite(db)].some((doc) => doc !== null && packagesOf(doc).some((p) => p.productId === id));
  const held = db
    .select({ id: clientPackages.id })
    .from(clientPackages)
    .where(
      and(
        eq(clientPackages.productId, id),
        // Not a checkout closed or expired at Stripe before it was paid (still pending, with endedAt): no payment is awaited.
        or(inArray(clientPackages.status, ['active', 'past_due']), and(eq(clientPackages.status, 'pending'), isNull(clientPackages.endedAt))),
      ),
    )
    .get();
  if (inDocument || held) throw conflict(PRODUCT_IN_PACKAGE);
  const removeFiles = removeStoredFiles(id);
  const result = db.delete(products).where(eq(products.id, id)).run();
  if (result.changes === 0) throw notFound('Product not found');
  removeFiles();
  wakeJob(PRODUCT_CHECKOUTS_JOB);
}
