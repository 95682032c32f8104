import Papa from 'papaparse';
import { endpoint } from '#server/app/endpoint.ts';
import { listOrders } from '#server/commerce/checkout.ts';

/** Every order as CSV (a spreadsheet-safe file: formulas are neutralised by papaparse's escapeFormulae). */
export const GET = endpoint({ auth: 'admin' }, () => {
  const rows = listOrders().map((o) => ({
    order: o.id,
    date: o.createdAt.toISOString(),
    product: o.productName,
    amount: (o.amount / 100).toFixed(2),
    currency: o.currency.toUpperCase(),
    status: o.status,
    email: o.customerEmail ?? '',
    files: o.deliveries.map((d) => d.fileName).join('; '),
    downloads: o.deliveries.reduce((n, d) => n + d.downloads, 0),
    payment: o.paymentIntentId,
    refunded: o.refundedAt?.toISOString() ?? '',
  }));
  const csv = Papa.unparse(rows, { escapeFormulae: true, columns: ['order', 'date', 'product', 'amount', 'currency', 'status', 'email', 'files', 'downloads', 'payment', 'refunded'] });
  return new Response(csv, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`, 'Cache-Control': 'no-store' },
  });
});
