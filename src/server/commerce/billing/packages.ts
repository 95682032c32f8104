// What a package in the site document points at must exist: the event type its sessions are
// booked as and the product whose files come with it. Checked when the owner saves the document.
import { eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { bookingEventTypes } from '#db/schema/booking.ts';
import { products } from '#db/schema/commerce.ts';
import { badRequest } from '#server/http/errors.ts';
import type { SiteDocument } from '#shared/schemas/site.ts';

export function checkPackageLinks(db: Pick<Db, 'select'>, doc: SiteDocument): void {
  const issues: { path: (string | number)[]; message: string }[] = [];
  doc.workWithMe.packageTabs.forEach((tab, t) =>
    tab.packages.forEach((p, i) => {
      const at = ['workWithMe', 'packageTabs', t, 'packages', i];
      if (p.eventType && !db.select({ id: bookingEventTypes.id }).from(bookingEventTypes).where(eq(bookingEventTypes.slug, p.eventType)).get())
        issues.push({ path: [...at, 'eventType'], message: `There is no event type '${p.eventType}' (Admin → Booking)` });
      if (p.productId !== null && !db.select({ id: products.id }).from(products).where(eq(products.id, p.productId)).get())
        issues.push({ path: [...at, 'productId'], message: `There is no product ${p.productId} (Admin → Products)` });
    }),
  );
  if (issues.length > 0) throw badRequest(issues[0]!.message, issues);
}
