import { Badge } from '#admin/ui/controls.tsx';
import { CartIcon, PencilIcon, TrashIcon } from '#admin/ui/icons.tsx';
import { formatPrice } from '#shared/format.ts';
import type { Product } from '#admin/features/products/api/products.ts';

const iconButton = 'rounded-lg p-2 text-slate-600 transition hover:bg-slate-100 hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600';

export function ProductCard({ product, onEdit, onDelete }: { product: Product; onEdit: () => void; onDelete: () => void }) {
  const headingId = `product-${product.id}-name`;
  return (
    <li className="flex">
      <article aria-labelledby={headingId} className="flex w-full flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:shadow-md">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 id={headingId} className="text-base font-semibold text-ink">
              {product.name}
            </h3>
            <div className="mt-1.5">{product.isActive ? <Badge tone="green">Active</Badge> : <Badge tone="grey">Inactive</Badge>}</div>
          </div>
          <div className="flex shrink-0 items-center gap-1">
            <button type="button" onClick={onEdit} aria-label={`Edit ${product.name}`} title="Edit" className={iconButton}>
              <PencilIcon />
            </button>
            <button type="button" onClick={onDelete} aria-label={`Delete ${product.name}`} title="Delete" className={`${iconButton} hover:bg-red-50 hover:text-red-700`}>
              <TrashIcon />
            </button>
          </div>
        </div>

        <p className="mt-4 text-2xl font-bold tracking-tight text-ink">
          <span className="sr-only">Price: </span>
          {formatPrice(product.price)}
        </p>
        {product.description ? <p className="mt-2 line-clamp-3 text-sm text-slate-600">{product.description}</p> : <p className="mt-2 text-sm text-slate-500 italic">No description</p>}

        <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-5">
          <p className="min-w-0 truncate text-xs text-slate-500">
            Stripe ID: {product.stripePriceId ? <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-700">{product.stripePriceId}</code> : 'not set'}
          </p>
          {product.isActive && (
            <a
              href={`/checkout/${product.id}`}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Buy ${product.name} (checkout opens in a new tab)`}
              className="inline-flex items-center gap-1.5 rounded-lg bg-brand-50 px-3 py-1.5 text-sm font-semibold text-brand-700 transition hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <CartIcon size={16} />
              Buy
            </a>
          )}
        </div>
      </article>
    </li>
  );
}
