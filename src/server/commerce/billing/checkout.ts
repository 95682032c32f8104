// Buying a coaching package. Everything is checked (the package, its billing, the coupon) before
// any Stripe object is made, and every amount comes from the published site document and the
// coupon's row, never from the browser. One-time packages are a PaymentIntent, like products;
// instalments and monthly packages are a Stripe Subscription (a Customer, a Price, a
// Subscription left incomplete until the card is confirmed on our page); instalment plans end by
// themselves at Stripe after their last payment (`cancel_at`).
import { hash } from 'node:crypto';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '#db/client.ts';
import { clientPackages, clients, coupons, packagePrices } from '#db/schema/clients.ts';
import { orders } from '#db/schema/commerce.ts';
import { nowMs } from '#db/schema/now.ts';
import { getDb } from '#server/db.ts';
import { wakeJob } from '#server/jobs/runner.ts';
import { badRequest, notFound } from '#server/http/errors.ts';
import { CARD_MINIMUM, requireStripe } from '#server/commerce/stripe.ts';
import { publishedSite } from '#server/site/current.ts';
import type { CouponCheckDto, PackageCheckoutDto, PackageCheckoutInput } from '#shared/schemas/billing.ts';
import { packagesOf, type SitePackage } from '#shared/schemas/site.ts';
import { ABANDONED_CHECKOUTS_JOB, unpaidAtStripe } from './abandoned-checkouts.ts';
import { clientFor, type Client } from './clients.ts';
import { describeCoupon, discounted, holdCoupon, stripePromotionCode, usableCoupon, type Coupon, type CouponHolder } from './coupons.ts';

export const PACKAGE_NOT_FOUND = 'Package not found';
export const BY_REQUEST = 'This package is arranged by request: send the request form instead.';
export const TOO_SMALL = 'With this coupon the first payment comes to less than $0.50, which cannot be paid by card. Ask for another code.';

/** A package of the published site that can be bought here; 404 or 400 (by request) otherwise. */
export function packageForSale(id: string): SitePackage {
  const pkg = packagesOf(publishedSite()).find((p) => p.id === id);
  if (!pkg) throw notFound(PACKAGE_NOT_FOUND);
  if (pkg.billing === 'request') throw badRequest(BY_REQUEST, [{ path: ['packageId'], message: BY_REQUEST }]);
  return pkg;
}

/** A package sold by request, for its request form; 404 otherwise. */
export function packageByRequest(id: string): SitePackage {
  const pkg = packagesOf(publishedSite()).find((p) => p.id === id && p.billing === 'request');
  if (!pkg) throw notFound(PACKAGE_NOT_FOUND);
  return pkg;
}

/**
 * The first payment's amount with a coupon, or 400 (path `field`) when it would be below what a
 * card can be charged ($0.50). A code that makes the first payment free is refused too: every
 * package starts with a card payment, which is what makes the buyer a client.
 */
function firstAmount(pkg: SitePackage, coupon: Coupon | null, field: 'coupon' | 'code'): number {
  const due = discounted(pkg.price, coupon);
  if (due < CARD_MINIMUM) throw badRequest(TOO_SMALL, [{ path: [field], message: TOO_SMALL }]);
  return due;
}

/** What a coupon makes of a package's first payment (`POST /api/coupons/check`). */
export function checkCoupon(packageId: string, code: string): CouponCheckDto {
  const pkg = packageForSale(packageId);
  const coupon = usableCoupon(getDb(), code, 'code');
  return { code: coupon.code, amount: pkg.price, amountDue: firstAmount(pkg, coupon, 'code'), description: describeCoupon(coupon) };
}

/** The Stripe customer of a client, made once. */
async function customerOf(db: Db, stripe: Stripe, client: Client): Promise<string> {
  if (client.stripeCustomerId) return client.stripeCustomerId;
  const customer = await stripe.customers.create({ email: client.email, metadata: { clientId: String(client.id) } }, { idempotencyKey: `customer-${client.id}` });
  db.update(clients).set({ stripeCustomerId: customer.id, updatedAt: new Date() }).where(eq(clients.id, client.id)).run();
  return customer.id;
}

/** Drops the Stripe ids kept for a client, a package's price and a coupon (they are made again when next needed). */
function forgetStripeObjects(db: Db, client: Client, pkg: SitePackage, coupon: Coupon | null): void {
  db.transaction((tx) => {
    tx.update(clients).set({ stripeCustomerId: null }).where(eq(clients.id, client.id)).run();
    tx.delete(packagePrices).where(eq(packagePrices.packageId, pkg.id)).run();
    if (coupon) tx.update(coupons).set({ stripeCouponId: null, stripePromotionCodeId: null }).where(eq(coupons.id, coupon.id)).run();
  });
}

/** The monthly Stripe Price of a package at its current amount, made once per amount. */
async function priceOf(db: Db, stripe: Stripe, pkg: SitePackage): Promise<string> {
  const known = db
    .select()
    .from(packagePrices)
    .where(and(eq(packagePrices.packageId, pkg.id), eq(packagePrices.amount, pkg.price)))
    .get();
  if (known) return known.stripePriceId;
  const price = await stripe.prices.create(
    { currency: 'usd', unit_amount: pkg.price, recurring: { interval: 'month' }, product_data: { name: pkg.name }, metadata: { packageId: pkg.id } },
    { idempotencyKey: `price-${pkg.id}-${pkg.price}` },
  );
  db.insert(packagePrices).values({ packageId: pkg.id, amount: pkg.price, stripePriceId: price.id }).onConflictDoNothing().run();
  return price.id;
}

/** `n` calendar months after an instant (the same day of the month, clamped to its last day). */
export function monthsAfter(ms: number, n: number): number {
  const d = new Date(ms);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.getTime();
}

/** The terms a client's package keeps from the document, as they were when bought. */
const termsOf = (pkg: SitePackage) => ({
  packageId: pkg.id,
  packageName: pkg.name,
  billing: pkg.billing as 'one_time' | 'instalments' | 'monthly',
  amount: pkg.price,
  instalments: pkg.billing === 'instalments' ? pkg.instalments : null,
  sessionsPerGrant: pkg.sessions,
  eventType: pkg.eventType,
  productId: pkg.productId,
});

/**
 * Whether a buyer starting a checkout again is exempt from the hold of their own earlier
 * checkouts of the package with this limited coupon: only while nobody is paying them. One paid
 * or being paid (a bank debit under way, its webhook yet to come) uses the coupon like anyone
 * else's, so the buyer is refused as others are rather than given a second use.
 */
async function ownHoldExempt(db: Db, code: string, holder: CouponHolder): Promise<boolean> {
  const own = db
    .select({ paymentIntentId: clientPackages.paymentIntentId, subscriptionId: clientPackages.subscriptionId })
    .from(clientPackages)
    .innerJoin(clients, eq(clients.id, clientPackages.clientId))
    .innerJoin(coupons, eq(coupons.id, clientPackages.couponId))
    .where(
      and(
        eq(coupons.code, code.trim().toUpperCase()),
        isNotNull(coupons.maxRedemptions),
        eq(clients.email, holder.email),
        eq(clientPackages.packageId, holder.packageId),
        eq(clientPackages.status, 'pending'),
        isNull(clientPackages.endedAt),
      ),
    )
    .all();
  if (own.length === 0) return true;
  const stripe = requireStripe();
  for (const checkout of own) if (!(await unpaidAtStripe(stripe, checkout))) return false;
  return true;
}

/** `POST /api/checkout/package`: the payment (or subscription) to confirm with Stripe Elements, and the reference its purchase will be counted by. */
export async function startPackageCheckout(input: PackageCheckoutInput): Promise<PackageCheckoutDto & { ref: string }> {
  const db = getDb();
  const pkg = packageForSale(input.packageId);
  const holder = { email: input.email, packageId: pkg.id };
  const coupon = input.coupon ? usableCoupon(db, input.coupon, 'coupon', (await ownHoldExempt(db, input.coupon, holder)) ? holder : undefined) : null;
  const amountDue = firstAmount(pkg, coupon, 'coupon');
  const stripe = requireStripe();
  // Held from the check (nothing awaited since) until the pending package holds it.
  const release = holdCoupon(coupon, holder);
  try {
    const started = await checkOut(db, stripe, input, pkg, coupon, amountDue);
    // The buyer's earlier checkout of it with the same limited coupon, if any, is closed now.
    if (coupon?.maxRedemptions != null) wakeJob(ABANDONED_CHECKOUTS_JOB);
    return started;
  } finally {
    release();
  }
}

/** The Stripe objects of a checkout whose package and coupon were checked, and its pending package. */
async function checkOut(db: Db, stripe: Stripe, input: PackageCheckoutInput, pkg: SitePackage, coupon: Coupon | null, amountDue: number): Promise<PackageCheckoutDto & { ref: string }> {
  const client = clientFor(db, input.email);
  // A double click or a retry of the same checkout gets the same payment back. Stripe refuses a
  // key sent again with other parameters: the same checkout sent again with another e-mail or
  // coupon (the page kept by the browser's Back button), or after the package was edited, is
  // another payment, with a key of its own.
  const sent = [client.email, coupon?.id ?? '', amountDue, pkg.name, pkg.price, pkg.billing, pkg.instalments ?? '', pkg.sessions, pkg.eventType ?? '', pkg.productId ?? ''].join('|');
  const key = input.checkoutId ? `${pkg.id}-${input.checkoutId}-${hash('sha256', sent, 'hex').slice(0, 16)}` : null;

  if (pkg.billing === 'one_time') {
    const intent = await stripe.paymentIntents.create(
      {
        amount: amountDue,
        currency: 'usd',
        automatic_payment_methods: { enabled: true },
        description: pkg.name,
        receipt_email: client.email,
        metadata: { packageId: pkg.id, productName: pkg.name, email: client.email, ...(pkg.productId ? { productId: String(pkg.productId) } : {}) },
      },
      key ? { idempotencyKey: `package-${key}` } : undefined,
    );
    db.transaction((tx) => {
      tx.insert(clientPackages)
        .values({ clientId: client.id, ...termsOf(pkg), couponId: coupon?.id ?? null, paymentIntentId: intent.id })
        .onConflictDoNothing()
        .run();
      const cp = tx.select({ id: clientPackages.id }).from(clientPackages).where(eq(clientPackages.paymentIntentId, intent.id)).get()!;
      tx.insert(orders)
        .values({
          productId: pkg.productId,
          productName: pkg.name,
          amount: intent.amount,
          currency: intent.currency,
          status: 'pending',
          paymentIntentId: intent.id,
          customerEmail: client.email,
          clientPackageId: cp.id,
        })
        .onConflictDoUpdate({ target: orders.paymentIntentId, set: { updatedAt: nowMs, customerEmail: sql`coalesce(${orders.customerEmail}, ${client.email})` } })
        .run();
    });
    return { clientSecret: intent.client_secret!, mode: 'payment', amountDue: intent.amount, ref: `order:${intent.id}` };
  }

  const subscribe = async () =>
    stripe.subscriptions.create(
      {
        customer: await customerOf(db, stripe, client),
        items: [{ price: await priceOf(db, stripe, pkg) }],
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        expand: ['latest_invoice.confirmation_secret'],
        ...(coupon ? { discounts: [{ promotion_code: await stripePromotionCode(db, stripe, coupon) }] } : {}),
        metadata: { packageId: pkg.id, clientId: String(client.id) },
      },
      key ? { idempotencyKey: `subscription-${key}` } : undefined,
    );
  let sub: Stripe.Subscription;
  try {
    sub = await subscribe();
  } catch (err) {
    // A customer, price or code kept from another Stripe account or mode (test keys before live
    // ones) is not there: made again, once.
    if ((err as { code?: string }).code !== 'resource_missing') throw err;
    forgetStripeObjects(db, client, pkg, coupon);
    client.stripeCustomerId = null;
    if (coupon) coupon.stripePromotionCodeId = null;
    sub = await subscribe();
  }
  if (pkg.billing === 'instalments') {
    // The plan ends n months after its billing anchor, as Stripe counts its months: the nth
    // invoice is the last, with nothing prorated after it. Set from Stripe's own anchor (not this
    // server's clock), and the same on a retry of the same checkout.
    sub = await stripe.subscriptions.update(
      sub.id,
      { cancel_at: Math.floor(monthsAfter((sub.billing_cycle_anchor || sub.created) * 1000, pkg.instalments) / 1000), proration_behavior: 'none', expand: ['latest_invoice.confirmation_secret'] },
      key ? { idempotencyKey: `subscription-end-${key}` } : undefined,
    );
  }
  const invoice = sub.latest_invoice;
  const secret = invoice && typeof invoice === 'object' ? invoice.confirmation_secret?.client_secret : undefined;
  if (!invoice || typeof invoice !== 'object' || !secret) throw new Error(`Stripe answered subscription ${sub.id} without its first invoice's confirmation secret`);
  db.insert(clientPackages)
    .values({ clientId: client.id, ...termsOf(pkg), couponId: coupon?.id ?? null, subscriptionId: sub.id })
    .onConflictDoNothing()
    .run();
  return { clientSecret: secret, mode: 'subscription', amountDue: invoice.amount_due, ref: `subscription:${sub.id}` };
}
