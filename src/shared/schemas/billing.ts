// Coaching packages bought on the site: the checkout's input, coupons, and what a client and the
// owner see of a client's packages.
import * as z from 'zod';
import { CheckoutEmailSchema } from './checkout.ts';
import { BotFieldsSchema } from './common.ts';
import type { OrderStatus } from './product.ts';

const packageId = z.string({ error: 'Package not found' }).trim().min(1, 'Package not found').max(40, 'Package not found');

/** A coupon code as typed: letters, digits and dashes (what Stripe's promotion codes take), any case (kept upper case). */
export const CouponCodeSchema = z
  .string({ error: 'Coupon code must be text' })
  .trim()
  .toUpperCase()
  .min(1, 'Enter a coupon code')
  .max(40, 'Coupon codes are at most 40 characters')
  .regex(/^[A-Z0-9-]+$/, 'Coupon codes are letters, digits and dashes');

/** `amount` may be sent by a client but is ignored: every amount comes from the site's own records. */
export const PackageCheckoutSchema = z.object({
  packageId,
  email: CheckoutEmailSchema,
  coupon: z.union([z.literal(''), CouponCodeSchema]).optional(),
  amount: z.unknown().optional(),
  /** The same checkout asked again (a double click, a retry) gets the same payment back. */
  checkoutId: z.uuid('Invalid checkout id').optional(),
});
export type PackageCheckoutInput = z.infer<typeof PackageCheckoutSchema>;

export interface PackageCheckoutDto {
  clientSecret: string;
  mode: 'payment' | 'subscription';
  /** Cents due now (after the coupon). */
  amountDue: number;
}

export const CouponCheckSchema = z.object({ packageId, code: CouponCodeSchema });

export interface CouponCheckDto {
  code: string;
  /** The package's price (each payment's, for packages paid over time), in cents. */
  amount: number;
  /** What the first payment comes to with the coupon. */
  amountDue: number;
  /** What the coupon does, in words ('20% off the first 3 payments'). */
  description: string;
}

/** A request for a package sold by request (no checkout): it is e-mailed to the owner. */
export const PackageRequestSchema = BotFieldsSchema.extend({
  packageId,
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
  email: CheckoutEmailSchema,
  message: z.string({ error: 'Tell me a little about what you need' }).trim().min(1, 'Tell me a little about what you need').max(4000, 'The message must be at most 4,000 characters'),
});

export const CouponInputSchema = z
  .object({
    code: CouponCodeSchema,
    kind: z.enum(['percent', 'amount'], { error: 'Choose percent or amount off' }),
    /** Percent (1-100) or cents off. */
    value: z.number({ error: 'Enter how much off' }).int('Enter a whole number').positive('Enter how much off'),
    duration: z.enum(['once', 'months'], { error: 'Choose once or for some months' }),
    months: z.number({ error: 'Months must be a number' }).int().min(1, 'At least 1 month').max(36, 'At most 36 months').nullish(),
    expiresAt: z.iso.datetime({ offset: true, error: 'Expiry must be a date and time' }).nullish(),
    maxRedemptions: z.number({ error: 'The limit must be a number' }).int().min(1, 'The limit must be at least 1').max(100_000).nullish(),
  })
  .refine((c) => c.kind !== 'percent' || c.value <= 100, { path: ['value'], message: 'A percentage is at most 100' })
  .refine((c) => c.duration !== 'months' || (c.months ?? 0) >= 1, { path: ['months'], message: 'Say for how many months' });
export type CouponInput = z.infer<typeof CouponInputSchema>;

export interface CouponDto {
  id: number;
  code: string;
  kind: 'percent' | 'amount';
  value: number;
  duration: 'once' | 'months';
  months: number | null;
  expiresAt: Date | null;
  maxRedemptions: number | null;
  redemptions: number;
  isActive: boolean;
  description: string;
  createdAt: Date;
}

export const CouponUpdateSchema = z.object({ isActive: z.boolean({ error: 'Must be true or false' }) });

/** A package's status; disputed: one of its payments is disputed (a chargeback), so its sessions and downloads are paused. */
export type ClientPackageStatus = 'pending' | 'active' | 'past_due' | 'completed' | 'ended' | 'refunded' | 'disputed';

export interface ClientPackageDto {
  id: number;
  packageId: string;
  packageName: string;
  billing: 'one_time' | 'instalments' | 'monthly';
  amount: number;
  instalments: number | null;
  status: ClientPackageStatus;
  paymentsMade: number;
  nextPaymentAt: Date | null;
  /** Where to pay a failed invoice with another card. */
  payUrl: string | null;
  eventType: string;
  sessionsTotal: number;
  sessionsUsed: number;
  sessionsLeft: number;
  createdAt: Date;
  endedAt: Date | null;
}

export interface ClientPaymentDto {
  id: number;
  clientPackageId: number | null;
  productName: string;
  amount: number;
  status: OrderStatus;
  createdAt: Date;
  /** The client area's working download links of a paid payment. */
  downloads?: { fileName: string; size: number; url: string }[];
}

export interface ClientSessionDto {
  id: number;
  clientPackageId: number;
  typeName: string;
  start: Date;
  end: Date;
  /** The booking's own page (move or cancel it). */
  manageUrl: string;
}

export interface ClientDto {
  id: number;
  email: string;
  username: string | null;
  notes: string;
  createdAt: Date;
  packages: ClientPackageDto[];
  payments: ClientPaymentDto[];
}

export const ClientNotesSchema = z.object({ notes: z.string({ error: 'Notes must be text' }).max(10_000, 'Notes must be at most 10,000 characters') });
export const AddSessionsSchema = z.object({
  sessions: z
    .number({ error: 'Sessions must be a number' })
    .int('Sessions must be a whole number')
    .min(-100)
    .max(100)
    .refine((n) => n !== 0, 'Add at least one session'),
});

/** Words for a package's status. */
export const PACKAGE_STATUS_LABEL: Record<ClientPackageStatus, string> = {
  pending: 'Awaiting payment',
  active: 'Active',
  past_due: 'Payment failed',
  completed: 'Paid in full',
  ended: 'Ended',
  refunded: 'Refunded',
  disputed: 'Disputed',
};
