// Previous / Next under a list paged on the server, with which rows are shown of how many. While
// the asked-for page loads, the rows on screen are still the last page's: the pager says so and
// waits for it.
import { formatCount } from '#shared/format.ts';

export function Pager({ label, page, pageSize, total, loading = false, onPage }: { label: string; page: number; pageSize: number; total: number; loading?: boolean; onPage: (page: number) => void }) {
  if (total <= pageSize) return null;
  const pages = Math.ceil(total / pageSize);
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav aria-label={label} aria-busy={loading} className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
      <p aria-live="polite">
        {formatCount(first)}–{formatCount(last)} of {formatCount(total)}
        {loading && <span className="ml-2 text-slate-500">Loading…</span>}
      </p>
      <div className="flex gap-2">
        <button type="button" className="btn-secondary px-3 py-1.5" disabled={loading || page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </button>
        <span className="self-center">
          Page {formatCount(page)} of {formatCount(pages)}
        </span>
        <button type="button" className="btn-secondary px-3 py-1.5" disabled={loading || page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </button>
      </div>
    </nav>
  );
}
