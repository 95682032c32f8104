import { Badge } from '#admin/ui/controls.tsx';
import { ArrowRightIcon, PencilIcon, TrashIcon } from '#admin/ui/icons.tsx';
import { formatShortDate } from '#shared/format.ts';
import type { Redirect } from '#admin/features/redirects/api/redirects.ts';

const iconButton = 'rounded-lg p-2 text-slate-600 transition hover:bg-slate-100 hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600';

const IMPORTED_FROM = { wordpress: 'WordPress', substack: 'Substack', ghost: 'Ghost' } as const;

/** One redirect: old address, new address, hits and where it came from. */

export function RedirectRow({ redirect, onEdit, onDelete }: { redirect: Redirect; onEdit: () => void; onDelete: () => void }) {
  const headingId = `redirect-${redirect.id}-from`;
  return (
    <li>
      <article aria-labelledby={headingId} className="flex flex-wrap items-center gap-x-6 gap-y-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <h3 id={headingId} className="min-w-0 font-mono font-semibold break-all text-ink">
              <span className="sr-only">From </span>
              {redirect.fromPath}
            </h3>
            <ArrowRightIcon size={16} />
            <p className="min-w-0 font-mono break-all text-slate-700">
              <span className="sr-only">To </span>
              {redirect.toPath}
            </p>
          </div>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-500">
            {redirect.source === 'manual' ? <Badge tone="grey">Added by hand</Badge> : <Badge tone="blue">Imported from {IMPORTED_FROM[redirect.source]}</Badge>}
            {redirect.lastHitAt && <span>Last visit {formatShortDate(redirect.lastHitAt)}</span>}
          </div>
        </div>
        <p className="text-sm text-slate-700">
          <span className="text-lg font-bold text-ink">{redirect.hits}</span> {redirect.hits === 1 ? 'hit' : 'hits'}
        </p>
        <div className="flex shrink-0 items-center gap-1">
          <button type="button" onClick={onEdit} aria-label={`Edit redirect from ${redirect.fromPath}`} title="Edit" className={iconButton}>
            <PencilIcon />
          </button>
          <button type="button" onClick={onDelete} aria-label={`Delete redirect from ${redirect.fromPath}`} title="Delete" className={`${iconButton} hover:bg-red-50 hover:text-red-700`}>
            <TrashIcon />
          </button>
        </div>
      </article>
    </li>
  );
}
