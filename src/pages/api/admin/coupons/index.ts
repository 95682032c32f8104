import { createCoupon, listCoupons } from '#server/commerce/billing/coupons.ts';
import { getDb } from '#server/db.ts';
import { endpoint, json } from '#server/app/endpoint.ts';
import { CouponInputSchema } from '#shared/schemas/billing.ts';

export const GET = endpoint({ auth: 'admin' }, () => listCoupons(getDb()));

/** A new coupon (201); 409 when the code exists. It reaches Stripe when first used on a package paid over time. */
export const POST = endpoint({ auth: 'admin', changesContent: false, body: CouponInputSchema }, ({ body }) => json(createCoupon(getDb(), body), 201));
