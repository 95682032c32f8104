// Admin → Clients: clients with their packages and payments, the owner's actions on a package,
// and coupons.
import { API } from '#shared/api-paths.ts';
import { api } from '#lib/api-client.ts';
import { reportFailure } from '#admin/lib/query.ts';
import type { Json } from '#shared/json.ts';
import type { ClientDto, CouponDto, CouponInput } from '#shared/schemas/billing.ts';

export { CouponInputSchema, PACKAGE_STATUS_LABEL } from '#shared/schemas/billing.ts';
export type { CouponInput };
export type Client = Json<ClientDto>;
export type Coupon = Json<CouponDto>;

/** A write whose failure is toasted with the server's own reason (then rethrown). */
async function write<T>(method: string, path: string, body: unknown, fallback: string): Promise<T> {
  try {
    return await api<T>(method, path, body);
  } catch (err) {
    reportFailure(err, fallback);
    throw err;
  }
}

export const addSessions = (packageId: number, sessions: number) => write<Client>('POST', API.clientPackageSessions(packageId), { sessions }, 'Failed to add sessions. Please try again.');
export const endPackage = (packageId: number) => write<Client>('POST', API.clientPackageEnd(packageId), {}, 'Failed to end the package. Please try again.');
export const refundLast = (packageId: number) => write<Client>('POST', API.clientPackageRefund(packageId), {}, 'Failed to refund the payment. Please try again.');
export const saveNotes = (clientId: number, notes: string) => write<Client>('PATCH', API.client(clientId), { notes }, 'Failed to save the notes. Please try again.');
export const createCoupon = (input: CouponInput) => api<Coupon>('POST', API.coupons, input);
export const setCouponActive = (id: number, isActive: boolean) => write<Coupon>('PATCH', API.coupon(id), { isActive }, 'Failed to update the coupon. Please try again.');
