// /admin/orders: what was bought, for how much, by whom, whether it was paid, which files went
// out and how often they were downloaded. A paid order's receipt can be sent again (with new
// links) and the order refunded through Stripe (its links then stop working). CSV export.
import { API } from '#shared/api-paths.ts';
import { useState } from 'react';
import { usePagedList } from '#admin/lib/paged-query.ts';
import { mutate } from '#admin/lib/query.ts';
import { Badge, EmptyState, PageHeader, SearchInput, StatCard } from '#admin/ui/controls.tsx';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { Pager } from '#admin/ui/pager.tsx';
import { DataTable } from '#admin/ui/table.tsx';
import { toast } from '#lib/toast.ts';
import { formatCount, formatPrice, formatShortDate } from '#shared/format.ts';
import type { Json } from '#shared/json.ts';
import type { DeliveryDto, OrderDto, OrderStatsDto } from '#shared/schemas/product.ts';

type Delivery = Json<DeliveryDto>;
type Order = Json<OrderDto>;

const TONE = { succeeded: 'green', pending: 'amber', failed: 'red', refunded: 'grey', disputed: 'red', lost: 'grey' } as const;
const LABEL = { succeeded: 'Paid', pending: 'Pending', failed: 'Failed', refunded: 'Refunded', disputed: 'Disputed', lost: 'Dispute lost' } as const;

/** One line per file: its newest link's downloads. */
function Files({ deliveries }: { deliveries: Delivery[] }) {
  const newest = new Map<string, Delivery>();
  for (const d of deliveries) newest.set(d.fileName, d);
  if (newest.size === 0) return <span className="text-slate-400">—</span>;
  return (
    <ul className="space-y-0.5">
      {[...newest.values()].map((d) => (
        <li key={d.fileName} className="whitespace-nowrap">
          {d.fileName} <span className="text-xs text-slate-500">{d.revoked ? '(link ended)' : `${d.downloads} of ${d.maxDownloads} downloads`}</span>
        </li>
      ))}
    </ul>
  );
}

export default function Orders() {
  const [search, setSearch] = useState('');
  const orders = usePagedList<Order, OrderStatsDto>(API.orders, search, {}, 'Failed to fetch orders');
  const [busy, setBusy] = useState<number | null>(null);
  const [refunding, setRefunding] = useState<Order | null>(null);
  const list = orders.items;
  const stats = orders.data?.stats;
  const everyone = stats?.total ?? 0;
  const searching = search.trim() !== '';

  const act = async (order: Order, run: () => Promise<unknown>, done: { title: string; description: string }) => {
    setBusy(order.id);
    try {
      await run();
      toast(done);
      await orders.refetch();
    } catch {
      // mutate() has said so
    } finally {
      setBusy(null);
    }
  };

  const resend = (o: Order) =>
    act(o, () => mutate('POST', `${API.order(o.id)}/resend-receipt`, {}, { title: 'Error', description: 'Failed to send the receipt. Please try again.' }), {
      title: 'Receipt sent',
      description: `A new receipt with fresh links is on its way to ${o.customerEmail}.`,
    });

  const refund = async () => {
    const o = refunding;
    if (!o) return;
    await act(o, () => mutate('POST', `${API.order(o.id)}/refund`, {}, { title: 'Error', description: 'The refund failed. Please try again.' }), {
      title: 'Order refunded',
      description: `${formatPrice(o.amount)} goes back to the buyer; the download links of order ${o.id} no longer work.`,
    });
    setRefunding(null);
  };

  return (
    <>
      <PageHeader
        title="Orders"
        subtitle="Payments taken through checkout"
        actions={
          <a href={API.ordersCsv} className="btn-secondary" download>
            Export CSV
          </a>
        }
      />
      <section aria-label="Order statistics" className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3">
        <StatCard label="Revenue" value={formatPrice(stats?.revenue ?? 0)} detail="from paid orders" />
        <StatCard label="Paid Orders" value={stats?.paid ?? 0} />
        <StatCard label="Pending or Failed" value={stats?.pendingOrFailed ?? 0} />
      </section>
      {everyone > 0 && (
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-600" role="status">
            {searching ? `Showing ${formatCount(orders.data?.total ?? 0)} of ${formatCount(everyone)}` : `${formatCount(everyone)} in total, newest first`}
          </p>
          <SearchInput id="order-search" label="Search orders by e-mail or product" placeholder="Search by e-mail or product..." value={search} onChange={setSearch} />
        </div>
      )}
      {loadState(orders, { loading: 'Loading orders', failed: 'Failed to fetch orders' }) ??
        (everyone === 0 ? (
          <EmptyState title="No orders yet" text="Orders appear here when someone starts a checkout." />
        ) : list.length === 0 ? (
          <EmptyState title="No orders found" text={`No order's e-mail or product matches “${search.trim()}”.`} />
        ) : (
          <>
            <DataTable caption="Orders, newest first" columns={['Order', 'Date', 'Product', { label: 'Amount', align: 'right' }, 'Status', 'Customer', 'Files', { label: 'Actions', hidden: true }]}>
              {list.map((o) => (
                <tr key={o.id}>
                  <td className="px-4 py-3 text-slate-600">{o.id}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-600">{formatShortDate(o.createdAt)}</td>
                  <td className="px-4 py-3 font-medium text-ink">{o.productName}</td>
                  <td className="px-4 py-3 text-right font-medium whitespace-nowrap text-ink">{formatPrice(o.amount)}</td>
                  <td className="px-4 py-3">
                    <Badge tone={TONE[o.status]}>{LABEL[o.status]}</Badge>
                  </td>
                  <td className="px-4 py-3 text-slate-600">{o.customerEmail ?? '—'}</td>
                  <td className="px-4 py-3 text-slate-700">
                    <Files deliveries={o.deliveries} />
                  </td>
                  <td className="px-4 py-3 text-right whitespace-nowrap">
                    {o.status === 'succeeded' && (
                      <span className="inline-flex gap-2">
                        {o.customerEmail && (
                          <button type="button" className="btn-secondary px-3 py-1.5" disabled={busy === o.id} onClick={() => void resend(o)} aria-label={`Resend receipt of order ${o.id}`}>
                            Resend receipt
                          </button>
                        )}
                        <button type="button" className="btn-secondary px-3 py-1.5 text-red-700" disabled={busy === o.id} onClick={() => setRefunding(o)} aria-label={`Refund order ${o.id}`}>
                          Refund
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
            <Pager label="Order pages" list={orders} />
          </>
        ))}
      <ConfirmDialog
        open={refunding !== null}
        title={`Refund order ${refunding?.id ?? ''}?`}
        description={
          refunding
            ? `${formatPrice(refunding.amount)} for ${refunding.productName} goes back to ${refunding.customerEmail ?? 'the buyer'} through Stripe, and the order's download links stop working. This cannot be undone.`
            : ''
        }
        confirmLabel="Refund"
        busy={busy !== null}
        onConfirm={() => void refund()}
        onCancel={() => setRefunding(null)}
      />
    </>
  );
}
