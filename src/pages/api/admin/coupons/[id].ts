import { setCouponActive } from '#server/commerce/billing/coupons.ts';
import { getDb } from '#server/db.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { getStripe } from '#server/commerce/stripe.ts';
import { CouponUpdateSchema } from '#shared/schemas/billing.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** Switches a coupon on or off (its terms never change: make a new code instead). */
export const PATCH = endpoint({ auth: 'admin', changesContent: false, params: IdParamsSchema, body: CouponUpdateSchema }, ({ params, body }) =>
  setCouponActive(getDb(), getStripe(), params.id, body.isActive),
);
