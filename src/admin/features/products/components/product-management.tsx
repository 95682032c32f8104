// /admin/products: product stats, the catalogue, and create / edit / delete.
import { StatCard } from '#admin/ui/controls.tsx';
import { BagIcon, CartIcon, DollarIcon, PencilIcon } from '#admin/ui/icons.tsx';
import { ResourceScreen } from '#admin/ui/resource-screen.tsx';
import { toast } from '#lib/toast.ts';
import { formatPrice } from '#shared/format.ts';
import { deleteProduct, useProducts, type Product } from '#admin/features/products/api/products.ts';
import { ProductCard } from './product-card.tsx';
import { ProductFormDialog } from './product-form-dialog.tsx';

export default function ProductManagement() {
  return (
    <ResourceScreen<Product>
      query={useProducts()}
      title="Product Management"
      subtitle="Digital products and services buyers can pay for by card."
      noun="Product"
      plural="Products"
      stats={{
        label: 'Product statistics',
        className: 'grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4',
        cards: (products, value) => {
          const active = products.filter((p) => p.isActive);
          return (
            <>
              <StatCard label="Total Products" value={value(products.length)} icon={<BagIcon />} detail="In the catalogue" />
              <StatCard label="Active" value={value(active.length)} icon={<CartIcon />} detail="Available for purchase" />
              <StatCard label="Inactive" value={value(products.length - active.length)} icon={<PencilIcon />} detail="Hidden from buyers" />
              <StatCard label="Total Value" value={value(formatPrice(active.reduce((sum, p) => sum + p.price, 0)))} icon={<DollarIcon />} detail="Sum of active prices" />
            </>
          );
        },
      }}
      list={{
        loading: 'Loading products',
        failed: 'Products could not be loaded',
        empty: { title: 'No products yet', text: 'Add a session, a playbook or a workshop people can buy.' },
        className: 'grid gap-4 md:grid-cols-2 xl:grid-cols-3',
        item: (product, actions) => <ProductCard key={product.id} product={product} onEdit={actions.edit} onDelete={actions.remove} />,
      }}
      remove={async (product) => {
        await deleteProduct(product.id);
        toast({ title: 'Product deleted', description: `${product.name} was removed from the website.` });
      }}
      confirmText={(product) => `This action cannot be undone. This will permanently delete the product "${product.name}" and remove it from the website.`}
      dialog={(product, done) => <ProductFormDialog product={product} onClose={done.close} onSaved={done.saved} />}
    />
  );
}
