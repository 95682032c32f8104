import { endpoint } from '#server/app/endpoint.ts';
import { ordersCsv } from '#server/commerce/orders-csv.ts';

/** Every order as CSV (a spreadsheet-safe file: formulas are neutralised by papaparse's escapeFormulae). */
export const GET = endpoint({ auth: 'admin' }, () => {
  return new Response(ordersCsv(), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`, 'Cache-Control': 'no-store' },
  });
});
