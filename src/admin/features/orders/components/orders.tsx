// /admin/orders: what was bought, for how much, by whom, and whether it was paid. Beyond the
// spec: what an owner selling products needs to see.
import { useQuery } from '@/admin/lib/query';
import { Badge, EmptyState, PageHeader, StatCard } from '@/admin/ui/controls';
import { loadState } from '@/admin/ui/load-error';
import { formatPrice, formatShortDate } from '@/shared/format';

interface Order {
  id: number;
  productId: number | null;
  productName: string;
  amount: number;
  currency: string;
  status: 'pending' | 'succeeded' | 'failed';
  paymentIntentId: string;
  customerEmail: string | null;
  createdAt: string;
}

const TONE = { succeeded: 'green', pending: 'amber', failed: 'red' } as const;
const LABEL = { succeeded: 'Paid', pending: 'Pending', failed: 'Failed' } as const;

export default function Orders() {
  const orders = useQuery<Order[]>('/api/admin/orders', 'Failed to fetch orders');
  const list = orders.data ?? [];
  const paid = list.filter((o) => o.status === 'succeeded');
  return (
    <>
      <PageHeader title="Orders" subtitle="Payments taken through checkout" />
      <section aria-label="Order statistics" className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3">
        <StatCard label="Revenue" value={formatPrice(paid.reduce((s, o) => s + o.amount, 0))} detail="from paid orders" />
        <StatCard label="Paid Orders" value={paid.length} />
        <StatCard label="Pending or Failed" value={list.length - paid.length} />
      </section>
      {loadState(orders, { loading: 'Loading orders', failed: 'Failed to fetch orders' }) ?? (list.length === 0 ? (
        <EmptyState title="No orders yet" text="Orders appear here when someone starts a checkout." />
      ) : (
        <div className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Orders, newest first</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">Date</th>
                <th scope="col" className="px-4 py-3">Product</th>
                <th scope="col" className="px-4 py-3 text-right">Amount</th>
                <th scope="col" className="px-4 py-3">Status</th>
                <th scope="col" className="px-4 py-3">Customer</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.map((o) => (
                <tr key={o.id}>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-600">{formatShortDate(o.createdAt)}</td>
                  <td className="px-4 py-3 font-medium text-ink">{o.productName}</td>
                  <td className="px-4 py-3 text-right font-medium whitespace-nowrap text-ink">{formatPrice(o.amount)}</td>
                  <td className="px-4 py-3">
                    <Badge tone={TONE[o.status]}>{LABEL[o.status]}</Badge>
                  </td>
                  <td className="px-4 py-3 text-slate-600">{o.customerEmail ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </>
  );
}
