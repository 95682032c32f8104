// Card checkout: asks the server for a PaymentIntent (the server prices it), then shows the
// order summary and Stripe's Payment Element. Stripe.js is loaded from Stripe, as it must be.
import { API } from '#shared/api-paths.ts';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Field } from '#components/ui/Field.tsx';
import { api, errorMessage } from '#lib/api-client.ts';
import { apiFieldErrors, check, focusFirstInvalid, formValues, type FieldErrors } from '#lib/form.ts';
import { paidAlready } from '#lib/payment-result.ts';
import { toast } from '#lib/toast.ts';
import { formatPrice } from '#shared/format.ts';

interface CheckoutProduct {
  id: number;
  name: string;
  description: string | null;
  price: number;
}

interface Props {
  product: CheckoutProduct;
  publishableKey: string;
}

function Summary({ product }: { product: CheckoutProduct }) {
  const price = formatPrice(product.price);
  return (
    <section aria-labelledby="summary-title" className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
      <h2 id="summary-title" className="text-lg font-bold text-ink">
        Order summary
      </h2>
      <p className="mt-4 font-semibold text-ink">{product.name}</p>
      {product.description && <p className="mt-1 text-sm text-slate-600">{product.description}</p>}
      <dl className="mt-6 space-y-2 border-t border-slate-200 pt-4 text-sm">
        <div className="flex justify-between">
          <dt className="text-slate-600">Price</dt>
          <dd className="font-medium text-ink">{price}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-slate-600">Subtotal</dt>
          <dd className="font-medium text-ink">{price}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-slate-600">Tax</dt>
          <dd className="text-slate-600">Calculated at checkout</dd>
        </div>
        <div className="flex justify-between border-t border-slate-200 pt-3 text-base">
          <dt className="font-semibold text-ink">Total</dt>
          <dd className="font-bold text-ink">{price}</dd>
        </div>
      </dl>
    </section>
  );
}

function PayForm({ product, checkoutId, clientSecret }: { product: CheckoutProduct; checkoutId: string; clientSecret: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!stripe || !elements || busy) return;
    const values = formValues(e.currentTarget);
    setBusy(true);
    // The schema (and zod with it) loads on the first submit, not with the page (docs/decisions/004).
    const { CheckoutFormSchema } = await import('#shared/schemas/checkout.ts');
    const checked = check(CheckoutFormSchema, values);
    if (checked.errors) {
      setErrors(checked.errors);
      focusFirstInvalid(form.current, checked.errors);
      setBusy(false);
      return;
    }
    setErrors({});
    // The same checkout's intent, now with the address the receipt and downloads go to.
    try {
      await api('POST', API.paymentIntent, { productId: product.id, checkoutId, email: checked.data.email });
    } catch (err) {
      const fields = apiFieldErrors(err);
      setErrors(fields);
      if (fields.email) focusFirstInvalid(form.current, fields);
      else toast({ title: 'Payment Error', description: errorMessage(err, 'Failed to initialize payment. Please try again.'), variant: 'destructive' });
      setBusy(false);
      return;
    }
    const returnUrl = `${window.location.origin}/checkout/success`;
    const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl, receipt_email: checked.data.email }, redirect: 'if_required' });
    // Paid already (in another tab, or by a press whose answer was lost): its receipt.
    const id = result.error ? paidAlready(result.error) : result.paymentIntent?.id;
    if (result.error && !id) {
      toast({ title: 'Payment Failed', description: result.error.message ?? 'Your payment could not be completed.', variant: 'destructive' });
      setBusy(false);
      return;
    }
    toast({ title: 'Payment Successful', description: 'Thank you for your purchase!' });
    // A moment to read the toast, then the receipt.
    window.setTimeout(
      () => window.location.assign(id ? `${returnUrl}?payment_intent=${encodeURIComponent(id)}&payment_intent_client_secret=${encodeURIComponent(clientSecret)}&redirect_status=succeeded` : returnUrl),
      1000,
    );
  }

  return (
    <form ref={form} onSubmit={(e) => void submit(e)} noValidate className="space-y-6">
      <Field id="checkout-email" label="Email" error={errors.email} hint="Your receipt and any downloads are sent here.">
        {(control) => <input {...control} name="email" type="email" autoComplete="email" required className="input" />}
      </Field>
      <PaymentElement />
      <button type="submit" className="btn-primary w-full py-3 text-base" disabled={!stripe || !elements || busy}>
        {busy ? 'Processing...' : `Complete Payment - ${formatPrice(product.price)}`}
      </button>
      <p className="text-center text-xs text-slate-500">Payments are processed securely by Stripe. Your card details never touch this site.</p>
    </form>
  );
}

export default function Checkout({ product, publishableKey }: Props) {
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const checkoutId = useRef(crypto.randomUUID());
  const stripePromise = useMemo<Promise<Stripe | null>>(() => loadStripe(publishableKey), [publishableKey]);

  useEffect(() => {
    let live = true;
    api<{ clientSecret: string }>('POST', API.paymentIntent, { productId: product.id, amount: product.price / 100, checkoutId: checkoutId.current })
      .then((r) => live && setClientSecret(r.clientSecret))
      .catch((err) => {
        if (!live) return;
        setFailed(true);
        toast({ title: 'Payment Error', description: errorMessage(err, 'Failed to initialize payment. Please try again.'), variant: 'destructive' });
      });
    return () => {
      live = false;
    };
  }, [product.id, product.price]);

  if (failed) {
    return (
      <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-red-800">
        <p className="font-semibold">Payment Error</p>
        <p className="mt-1 text-sm">Failed to initialize payment. Please try again.</p>
        <button type="button" className="mt-4 btn-secondary" onClick={() => window.location.reload()}>
          Try again
        </button>
      </div>
    );
  }
  if (!clientSecret) {
    return (
      <div role="status" className="flex flex-col items-center gap-4 py-16 text-slate-600">
        <span className="h-8 w-8 animate-spin rounded-full border-4 border-slate-200 border-t-brand-600" aria-hidden="true" />
        Initializing secure payment...
      </div>
    );
  }
  return (
    <div className="grid gap-8 md:grid-cols-2">
      <Summary product={product} />
      <Elements stripe={stripePromise} options={{ clientSecret, appearance: { theme: 'stripe', variables: { colorPrimary: '#2553e6' } } }}>
        <PayForm product={product} checkoutId={checkoutId.current} clientSecret={clientSecret} />
      </Elements>
    </div>
  );
}
