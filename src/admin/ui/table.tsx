// The admin's data tables: a bordered, scrolling table with a caption for screen readers and
// one header row. Rows are the caller's.
import type { ReactNode } from 'react';

export interface Column {
  label: string;
  /** Numbers align right. */
  align?: 'right';
  /** Named for screen readers only (an actions column). */
  hidden?: boolean;
}

/** Columns by label, or as a Column where one aligns right or is hidden. */
export function DataTable({ caption, columns, children }: { caption: string; columns: (string | Column)[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {columns
              .map((c) => (typeof c === 'string' ? { label: c } : c))
              .map((c) => (
                <th key={c.label} scope="col" className={`px-4 py-3 ${c.align === 'right' ? 'text-right' : ''}`}>
                  {c.hidden ? <span className="sr-only">{c.label}</span> : c.label}
                </th>
              ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
