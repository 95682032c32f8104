// Coupons: codes the owner makes (percent or amount off, once or for some months, with an
// optional expiry and limit). The site checks a code itself; for packages paid over time the
// coupon is mirrored at Stripe (a Coupon and its Promotion Code) the first time one is used, so
// making a coupon never waits on Stripe. A coupon with a limit counts its uses when they are paid,
// and an unpaid checkout holds one of them, so two buyers of its last use cannot both get it. The
// hold ends when the checkout is paid, or an hour after it started, when it is closed at Stripe
// so that it can no longer be paid (./abandoned-checkouts.ts).
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '#db/client.ts';
import { clientPackages, clients, coupons } from '#db/schema/clients.ts';
import { badRequest, conflict, notFound } from '#server/http/errors.ts';
import type { CouponDto, CouponInput } from '#shared/schemas/billing.ts';
import { formatPrice } from '#shared/format.ts';

export type Coupon = typeof coupons.$inferSelect;
type Tx = Pick<Db, 'select'>;

export const COUPON_INVALID = 'This coupon code is not valid.';
export const COUPON_EXPIRED = 'This coupon code has expired.';
export const COUPON_USED_UP = 'This coupon code has already been used as many times as it can be.';
export const COUPON_HELD = 'The remaining uses of this coupon code are held by checkouts in progress. Try again within the hour.';

/** How long a checkout not yet paid keeps a use of a limited coupon for its buyer before it is closed. */
export const COUPON_HOLD_MS = 60 * 60_000;

/**
 * Checkouts of a limited coupon between its check and the pending package that holds its use
 * (the Stripe call in between): per coupon id, how many for each buyer and package. The site is
 * one process, so a check and this count's increment happen with nothing between them; a crash
 * loses both the count and the checkout, whose buyer never got the payment form.
 */
const checkingOut = new Map<number, Map<string, number>>();

/** Who a checkout is for: their own earlier checkout of the same package, while nobody is paying it, holds nothing against them. */
export interface CouponHolder {
  email: string;
  packageId: string;
}

const holderKey = (h: CouponHolder) => `${h.email}\n${h.packageId}`;

/** Uses of `c` held by checkouts not yet paid or ended (closed at Stripe an hour after they start), other than `holder`'s. */
function heldUses(tx: Tx, c: Coupon, holder?: CouponHolder): number {
  const pending = tx
    .select({ email: clients.email, packageId: clientPackages.packageId })
    .from(clientPackages)
    .innerJoin(clients, eq(clients.id, clientPackages.clientId))
    .where(and(eq(clientPackages.couponId, c.id), eq(clientPackages.status, 'pending'), isNull(clientPackages.endedAt)))
    .all();
  const own = holder ? holderKey(holder) : null;
  const others = pending.filter((p) => holderKey(p) !== own);
  let inFlight = 0;
  for (const [key, n] of checkingOut.get(c.id) ?? []) if (key !== own) inFlight += n;
  return others.length + inFlight;
}

/** What a coupon does, in words. */
export function describeCoupon(c: Pick<Coupon, 'percentOff' | 'amountOff' | 'duration' | 'months'>): string {
  const off = c.percentOff !== null ? `${c.percentOff}% off` : `${formatPrice(c.amountOff ?? 0)} off`;
  if (c.duration === 'once') return `${off} the first payment`;
  return c.months === 1 ? `${off} the first month` : `${off} the first ${c.months} months`;
}

/** A payment's amount with the coupon (never below 0). */
export function discounted(amount: number, c: Pick<Coupon, 'percentOff' | 'amountOff'> | null): number {
  if (!c) return amount;
  if (c.percentOff !== null) return amount - Math.round((amount * c.percentOff) / 100);
  return Math.max(0, amount - (c.amountOff ?? 0));
}

/** The coupon a buyer typed, or a 400 saying why it cannot be used (path `field`); `holder`: the checkout it is for. */
export function usableCoupon(tx: Tx, code: string, field: 'coupon' | 'code', holder?: CouponHolder, now = Date.now()): Coupon {
  const c = tx.select().from(coupons).where(eq(coupons.code, code.trim().toUpperCase())).get();
  const refuse = (message: string) => badRequest(message, [{ path: [field], message }]);
  if (!c || !c.isActive) throw refuse(COUPON_INVALID);
  if (c.expiresAt && c.expiresAt.getTime() <= now) throw refuse(COUPON_EXPIRED);
  if (c.maxRedemptions !== null && c.redemptions >= c.maxRedemptions) throw refuse(COUPON_USED_UP);
  if (c.maxRedemptions !== null && c.redemptions + heldUses(tx, c, holder) >= c.maxRedemptions) throw refuse(COUPON_HELD);
  return c;
}

/**
 * Holds a use of a limited coupon for a checkout from its check until its pending package is
 * written (which holds it from then on); call the returned function at that point, or when the
 * checkout fails.
 */
export function holdCoupon(c: Coupon | null, holder: CouponHolder): () => void {
  if (!c || c.maxRedemptions === null) return () => undefined;
  const key = holderKey(holder);
  const held = checkingOut.get(c.id) ?? new Map<string, number>();
  checkingOut.set(c.id, held.set(key, (held.get(key) ?? 0) + 1));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const n = (held.get(key) ?? 1) - 1;
    if (n > 0) held.set(key, n);
    else held.delete(key);
    if (held.size === 0) checkingOut.delete(c.id);
  };
}

/** Counts a paid checkout that used the coupon. */
export function redeem(tx: Pick<Db, 'update'>, couponId: number): void {
  tx.update(coupons)
    .set({ redemptions: sql`${coupons.redemptions} + 1` })
    .where(eq(coupons.id, couponId))
    .run();
}

/** The coupon's Promotion Code at Stripe, made (once: idempotency keys, then stored) when first needed. */
export async function stripePromotionCode(db: Db, stripe: Stripe, c: Coupon): Promise<string> {
  if (c.stripePromotionCodeId) return c.stripePromotionCodeId;
  const coupon = await stripe.coupons.create(
    {
      name: c.code,
      ...(c.percentOff !== null ? { percent_off: c.percentOff } : { amount_off: c.amountOff ?? 0, currency: 'usd' }),
      ...(c.duration === 'once' ? { duration: 'once' as const } : { duration: 'repeating' as const, duration_in_months: c.months ?? 1 }),
      ...(c.expiresAt ? { redeem_by: Math.floor(c.expiresAt.getTime() / 1000) } : {}),
      ...(c.maxRedemptions !== null ? { max_redemptions: c.maxRedemptions } : {}),
      metadata: { couponId: String(c.id) },
    },
    { idempotencyKey: `coupon-${c.id}` },
  );
  const promo = await stripe.promotionCodes.create(
    {
      promotion: { type: 'coupon', coupon: coupon.id },
      code: c.code,
      ...(c.expiresAt ? { expires_at: Math.floor(c.expiresAt.getTime() / 1000) } : {}),
      ...(c.maxRedemptions !== null ? { max_redemptions: c.maxRedemptions } : {}),
      metadata: { couponId: String(c.id) },
    },
    { idempotencyKey: `promotion-code-${c.id}` },
  );
  db.update(coupons).set({ stripeCouponId: coupon.id, stripePromotionCodeId: promo.id }).where(eq(coupons.id, c.id)).run();
  return promo.id;
}

export function toCouponDto(c: Coupon): CouponDto {
  return {
    id: c.id,
    code: c.code,
    kind: c.percentOff !== null ? 'percent' : 'amount',
    value: c.percentOff ?? c.amountOff ?? 0,
    duration: c.duration,
    months: c.months,
    expiresAt: c.expiresAt,
    maxRedemptions: c.maxRedemptions,
    redemptions: c.redemptions,
    isActive: c.isActive,
    description: describeCoupon(c),
    createdAt: c.createdAt,
  };
}

export const listCoupons = (db: Db): CouponDto[] => db.select().from(coupons).orderBy(asc(coupons.code)).all().map(toCouponDto);

/** A new coupon; 409 when the code exists. */
export function createCoupon(db: Db, input: CouponInput): CouponDto {
  const taken = db.select({ id: coupons.id }).from(coupons).where(eq(coupons.code, input.code)).get();
  if (taken) throw conflict('A coupon with this code already exists', [{ path: ['code'], message: 'A coupon with this code already exists' }]);
  const row = db
    .insert(coupons)
    .values({
      code: input.code,
      percentOff: input.kind === 'percent' ? input.value : null,
      amountOff: input.kind === 'amount' ? input.value : null,
      duration: input.duration,
      months: input.duration === 'months' ? (input.months ?? 1) : null,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      maxRedemptions: input.maxRedemptions ?? null,
    })
    .returning()
    .get();
  return toCouponDto(row);
}

/**
 * Switches a coupon on or off. Its terms never change once made (Stripe's coupons cannot
 * change either): make a new code instead. An inactive code is refused at checkout.
 */
export async function setCouponActive(db: Db, stripe: Stripe | null, id: number, isActive: boolean): Promise<CouponDto> {
  const c = db.select().from(coupons).where(eq(coupons.id, id)).get();
  if (!c) throw notFound('Coupon not found');
  const row = db.update(coupons).set({ isActive }).where(eq(coupons.id, id)).returning().get();
  // Stripe stops taking the mirrored code too; when Stripe cannot be reached the site's own check still refuses it.
  if (stripe && c.stripePromotionCodeId) await stripe.promotionCodes.update(c.stripePromotionCodeId, { active: isActive }).catch(() => undefined);
  return toCouponDto(row);
}
