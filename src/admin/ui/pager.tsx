// Previous / Next under a list paged on the server, with which rows are shown of how many. While
// the asked-for page loads, the rows on screen are still the last page's: the pager says so and
// waits for it.
import type { PagedList } from '#admin/lib/paged-query.ts';
import { formatCount } from '#shared/format.ts';

/** The pager of `list`: its page, its last answer's size and match count, and whether a page is loading. */
export function Pager({ label, list }: { label: string; list: Pick<PagedList<unknown, unknown>, 'page' | 'data' | 'loading' | 'setPage'> }) {
  const { page, loading, setPage: onPage } = list;
  const total = list.data?.total ?? 0;
  const pageSize = list.data?.pageSize ?? 0;
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
