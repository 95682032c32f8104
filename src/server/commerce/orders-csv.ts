// Every order as CSV, for Admin → Orders' export and the whole-site export: a spreadsheet-safe
// file (formulas are neutralised by papaparse's escapeFormulae).
import Papa from 'papaparse';
import { listOrders } from './checkout.ts';

const COLUMNS = ['order', 'date', 'product', 'amount', 'currency', 'status', 'email', 'files', 'downloads', 'payment', 'refunded'];

export function ordersCsv(): string {
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
  return Papa.unparse(rows, { escapeFormulae: true, columns: COLUMNS });
}
