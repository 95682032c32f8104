import * as z from 'zod';
import { PageQuerySchema } from './paging.ts';
import { optionalText } from './common.ts';

/** Product as the API takes it: price in cents (the form multiplies dollars by 100). */
export const ProductInputSchema = z.object({
  name: z.string({ error: 'Product name is required' }).trim().min(1, 'Product name is required').max(255, 'Name too long'),
  description: optionalText(1000, 'Description too long'),
  price: z.number({ error: 'Price must be greater than 0' }).int('Price must be a whole number of cents').min(1, 'Price must be greater than 0').max(99_999_999, 'Price too high'),
  stripePriceId: optionalText(255, 'Stripe price ID too long'),
  isActive: z.boolean({ error: 'Active must be true or false' }).default(true),
});
export type ProductInput = z.infer<typeof ProductInputSchema>;

/** A product as the API answers it (price in cents). */
export interface ProductDto {
  id: number;
  name: string;
  description: string | null;
  price: number;
  stripePriceId: string | null;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A file buyers of a product get (never where it is kept). */
export interface ProductFileDto {
  id: number;
  productId: number;
  fileName: string;
  contentType: string;
  size: number;
  createdAt: Date;
}

export type OrderStatus = 'pending' | 'succeeded' | 'failed' | 'refunded' | 'disputed' | 'lost';

/** One download link an order was given, with its count. */
export interface DeliveryDto {
  fileName: string;
  downloads: number;
  maxDownloads: number;
  expiresAt: Date;
  revoked: boolean;
}

/** An order as Admin → Orders gets it. */
export interface OrderDto {
  id: number;
  productId: number | null;
  productName: string;
  /** Cents. */
  amount: number;
  currency: string;
  status: OrderStatus;
  paymentIntentId: string;
  customerEmail: string | null;
  lastEventId: string | null;
  refundedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  deliveries: DeliveryDto[];
}

/** GET /api/admin/orders with any of these answers one page; without them, every order. */
export const OrderPageQuerySchema = PageQuerySchema.extend({
  status: z.enum(['pending', 'succeeded', 'failed', 'refunded', 'disputed', 'lost'], { error: 'status must be pending, succeeded, failed, refunded, disputed or lost' }).optional(),
});
export type OrderPageQuery = z.infer<typeof OrderPageQuerySchema>;

/** The order screen's figures, over every order: revenue (cents) and count of the paid ones, the unpaid ones, and all. */
export interface OrderStatsDto {
  revenue: number;
  paid: number;
  pendingOrFailed: number;
  total: number;
}
