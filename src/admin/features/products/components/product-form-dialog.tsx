// Create or edit one product. The price is typed in dollars and checked and sent in cents
// (the shared schema works on cents, so its messages apply as they are).
import { useSchemaForm } from '#admin/lib/schema-form.ts';
import { Switch, TextArea, TextField } from '#admin/ui/controls.tsx';
import { FormDialog } from '#admin/ui/form-dialog.tsx';
import { ProductFiles } from './product-files';
import { toast } from '#lib/toast.ts';
import { formatPrice } from '#shared/format.ts';
import { centsToDollars, createProduct, dollarsToCents, ProductInputSchema, updateProduct, type Product, type ProductInput } from '#admin/features/products/api/products.ts';

interface Values {
  name: string;
  description: string;
  price: string;
  stripePriceId: string;
  isActive: boolean;
}

const DESCRIPTION_MAX = 1000;

interface Props {
  /** null: a new product. */
  product: Product | null;
  onClose: () => void;
  onSaved: (product: Product) => void;
}

export function ProductFormDialog({ product, onClose, onSaved }: Props) {
  const { values, errors, busy, set, bind, submit } = useSchemaForm<Values, ProductInput>(
    () => ({
      name: product?.name ?? '',
      description: product?.description ?? '',
      price: product ? centsToDollars(product.price) : '',
      stripePriceId: product?.stripePriceId ?? '',
      isActive: product?.isActive ?? true,
    }),
    (v) => ProductInputSchema.safeParse({ ...v, price: dollarsToCents(v.price) }),
    async (data) => {
      const saved = product ? await updateProduct(product.id, data) : await createProduct(data);
      toast({
        title: product ? 'Product updated' : 'Product created',
        description: `${saved.name} (${formatPrice(saved.price)}) is ${saved.isActive ? 'available for purchase' : 'inactive and hidden from buyers'}.`,
      });
      onSaved(saved);
    },
  );

  const cents = dollarsToCents(values.price);
  const priceError = errors.price;
  const priceHint = Number.isFinite(cents) && cents > 0 ? `Buyers pay ${formatPrice(cents)}` : 'In US dollars, e.g. 49.99';

  return (
    <FormDialog
      open
      onClose={onClose}
      title={product ? 'Edit Product' : 'Create Product'}
      description={product ? 'Changes apply to the next checkout.' : 'Active products get their own checkout page, ready to share.'}
      submitLabel={product ? 'Save Changes' : 'Create Product'}
      busy={busy}
      onSubmit={(form) => void submit(form)}
      size="md"
    >
      <TextField id="product-name" label="Product Name" {...bind('name')} autoFocus required maxLength={255} />

      <TextArea id="product-description" label="Description" rows={4} {...bind('description')} hint={`${values.description.length}/${DESCRIPTION_MAX} characters`} />

      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <label htmlFor="product-price" className="label">
            Price (USD)
          </label>
          <div className="relative">
            <span className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-sm text-slate-500" aria-hidden="true">
              $
            </span>
            <input
              id="product-price"
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              placeholder="0.00"
              required
              value={values.price}
              onChange={(e) => set('price', e.target.value)}
              aria-invalid={priceError ? true : undefined}
              aria-describedby={priceError ? 'product-price-error' : 'product-price-hint'}
              className={`input pl-7 ${priceError ? 'border-red-500' : ''}`}
            />
          </div>
          {priceError ? (
            <p id="product-price-error" className="mt-1 text-sm text-red-700">
              {priceError}
            </p>
          ) : (
            <p id="product-price-hint" className="mt-1 text-xs text-slate-500">
              {priceHint}
            </p>
          )}
        </div>
        <TextField id="product-stripe-price" label="Stripe Price ID (optional)" {...bind('stripePriceId')} placeholder="price_…" spellCheck={false} maxLength={255} />
      </div>

      <div className="rounded-xl border border-slate-200 p-4">
        <Switch label="Active" hint="Make available for purchase" checked={values.isActive} onChange={(v) => set('isActive', v)} />
      </div>

      <ProductFiles productId={product?.id ?? null} />
    </FormDialog>
  );
}
