import { checkCoupon } from '#server/commerce/billing/checkout.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { CouponCheckSchema } from '#shared/schemas/billing.ts';

/** What a coupon makes of a package's first payment, or 400 with the reason it cannot be used. */
export const POST = endpoint(
  { auth: 'public', changesContent: false, body: CouponCheckSchema, form: { success: (a) => `Coupon ${String(a.code)}: ${String(a.description)}` } },
  ({ body, context }) => {
    hit(LIMITS.couponCheck, clientKey(context));
    return checkCoupon(body.packageId, body.code);
  },
);
