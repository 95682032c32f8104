// /admin/products: product stats, the catalogue, and create / edit / delete.
import { useState } from 'react';
import { EmptyState, PageHeader, StatCard } from '@/admin/ui/controls';
import { useConfirmDelete } from '@/admin/lib/confirm-delete';
import { ConfirmDialog } from '@/admin/ui/dialog';
import { loadState } from '@/admin/ui/load-error';
import { BagIcon, CartIcon, DollarIcon, PencilIcon, PlusIcon } from '@/admin/ui/icons';
import { toast } from '@/lib/toast';
import { formatPrice } from '@/shared/format';
import { deleteProduct, useProducts, type Product } from '../api/products';
import { ProductCard } from './product-card';
import { ProductFormDialog } from './product-form-dialog';

type Editing = { product: Product | null } | null;

export default function ProductManagement() {
  const query = useProducts();
  const { data, refetch } = query;
  const products = data ?? [];
  const [editing, setEditing] = useState<Editing>(null);

  const active = products.filter((p) => p.isActive);
  const totalValue = active.reduce((sum, p) => sum + p.price, 0);

  const deletion = useConfirmDelete(async (product: Product) => {
    await deleteProduct(product.id);
    toast({ title: 'Product deleted', description: `${product.name} was removed from the website.` });
    await refetch();
  });
  const deleting = deletion.target;

  const newButton = (label: string) => (
    <button type="button" className="btn-primary" onClick={() => setEditing({ product: null })}>
      <PlusIcon size={16} />
      {label}
    </button>
  );

  const stat = (n: number | string) => (data ? n : '–');

  return (
    <>
      <PageHeader title="Product Management" subtitle="Digital products and services buyers can pay for by card." actions={newButton('New Product')} />

      <section aria-label="Product statistics" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard label="Total Products" value={stat(products.length)} icon={<BagIcon />} detail="In the catalogue" />
        <StatCard label="Active" value={stat(active.length)} icon={<CartIcon />} detail="Available for purchase" />
        <StatCard label="Inactive" value={stat(products.length - active.length)} icon={<PencilIcon />} detail="Hidden from buyers" />
        <StatCard label="Total Value" value={stat(formatPrice(totalValue))} icon={<DollarIcon />} detail="Sum of active prices" />
      </section>

      <section aria-labelledby="products-heading" className="mt-8">
        <h2 id="products-heading" className="mb-3 text-sm font-semibold tracking-wide text-slate-500 uppercase">
          Products
        </h2>
        {loadState(query, { loading: 'Loading products', failed: 'Products could not be loaded' }) ?? (products.length === 0 ? (
          <EmptyState title="No products yet" text="Add a session, a playbook or a workshop people can buy." action={newButton('Create First Product')} />
        ) : (
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {products.map((product) => (
              <ProductCard key={product.id} product={product} onEdit={() => setEditing({ product })} onDelete={() => deletion.ask(product)} />
            ))}
          </ul>
        ))}
      </section>

      {editing && (
        <ProductFormDialog
          product={editing.product}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refetch();
          }}
        />
      )}

      <ConfirmDialog
        open={deleting !== null}
        description={`This action cannot be undone. This will permanently delete the product "${deleting?.name ?? ''}" and remove it from the website.`}
        confirmLabel={deletion.busy ? 'Deleting...' : 'Delete Product'}
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </>
  );
}
