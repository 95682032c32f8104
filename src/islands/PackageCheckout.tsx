// Buying a package. The first step is a real form (e-mail and an optional coupon code): without
// JavaScript 'Apply' posts it and the page shows the total with the coupon; with JavaScript the
// island checks the code in place, then asks the server for the payment (the server prices it)
// and shows Stripe's Payment Element for the card. Values are read from the form when it is
// sent, so nothing typed before the island woke up is lost.
import { API } from '#shared/api-paths.ts';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Field } from '#components/ui/Field.tsx';
import { api, errorMessage } from '#lib/api-client.ts';
import { apiFieldErrors, focusFirstInvalid, formValues, type FieldErrors } from '#lib/form.ts';
import { closedAtStripe, paidAlready } from '#lib/payment-result.ts';
import { formatPrice } from '#shared/format.ts';
import type { FormPageProps } from '#shared/flash.ts';

interface Quote {
  code: string;
  amountDue: number;
  description: string;
}

interface Props extends FormPageProps {
  pkg: { id: string; name: string; price: number; terms: string };
  publishableKey: string;
  /** What the form was filled with (after a post without JavaScript). */
  initial: { email: string; code: string; quote: Quote | null; errors: FieldErrors };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const CHECKOUT_CLOSED = 'This checkout has expired. Reload the page to start again.';

function PayStep({ pkg, amountDue }: { pkg: Props['pkg']; amountDue: number }) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function pay(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    setError(null);
    const done = `${window.location.origin}/checkout/package/${pkg.id}?paid=1`;
    const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: done }, redirect: 'if_required' });
    // Paid already (in another tab, or by a press whose answer was lost): its receipt.
    const id = result.error ? paidAlready(result.error) : result.paymentIntent?.id;
    if (result.error && !id) {
      // A checkout left unpaid is closed at Stripe (so that a late payment cannot use a limited
      // coupon past its limit): a new one starts with the page.
      setError(closedAtStripe(result.error) ? CHECKOUT_CLOSED : (result.error.message ?? 'Your payment could not be completed.'));
      setBusy(false);
      return;
    }
    // The page asks Stripe about this payment rather than trusting the address.
    window.location.assign(id ? `${done}&payment_intent=${encodeURIComponent(id)}` : done);
  }

  return (
    <form onSubmit={(e) => void pay(e)} className="space-y-6" aria-label="Card payment">
      <PaymentElement />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <button type="submit" className="btn-primary w-full py-3 text-base" disabled={!stripe || !elements || busy}>
        {busy ? 'Processing...' : `Pay ${formatPrice(amountDue)}`}
      </button>
      <p className="text-center text-xs text-slate-500">Payments are processed securely by Stripe. Your card details never touch this site.</p>
    </form>
  );
}

export default function PackageCheckout({ pkg, publishableKey, initial, returnTo }: Props) {
  const [errors, setErrors] = useState<FieldErrors>(initial.errors);
  const [quote, setQuote] = useState<Quote | null>(initial.quote);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [payment, setPayment] = useState<{ clientSecret: string; amountDue: number } | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const checkoutId = useRef(crypto.randomUUID());
  // Stripe.js is fetched only for the card step, not for a visitor who only looks at the price.
  const paying = payment !== null;
  const stripePromise = useMemo<Promise<Stripe | null> | null>(() => (paying ? loadStripe(publishableKey) : null), [paying, publishableKey]);
  // The card step needs JavaScript: until the island runs, the form only checks a coupon.
  const [awake, setAwake] = useState(false);
  useEffect(() => setAwake(true), []);

  const fail = (err: unknown, fallback: string) => {
    const fields = apiFieldErrors(err);
    // The API names the coupon `code` when checking it and `coupon` when paying: one field here.
    const mapped: FieldErrors = { email: fields.email, code: fields.code ?? fields.coupon };
    setErrors(mapped);
    if (mapped.email || mapped.code) focusFirstInvalid(form.current, mapped);
    else setProblem(errorMessage(err, fallback));
  };

  async function applyCoupon(values: Record<string, string>) {
    const code = (values.code ?? '').trim();
    if (!code) {
      setQuote(null);
      setErrors({ code: 'Enter a coupon code' });
      return;
    }
    try {
      setQuote(await api<Quote>('POST', API.couponCheck, { packageId: pkg.id, code }));
      setErrors({});
    } catch (err) {
      setQuote(null);
      fail(err, 'The coupon could not be checked. Please try again.');
    }
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const values = formValues(e.currentTarget);
    const intent = (e.nativeEvent as SubmitEvent).submitter?.getAttribute('value');
    setBusy(true);
    setProblem(null);
    try {
      if (intent === 'apply') return await applyCoupon(values);
      const email = (values.email ?? '').trim();
      if (!EMAIL.test(email)) {
        const found = { email: 'Please enter a valid email address' };
        setErrors(found);
        focusFirstInvalid(form.current, found);
        return;
      }
      const code = (values.code ?? '').trim();
      const answer = await api<{ clientSecret: string; amountDue: number }>('POST', API.packageCheckout, { packageId: pkg.id, email, coupon: code || undefined, checkoutId: checkoutId.current });
      setErrors({});
      setPayment(answer);
    } catch (err) {
      fail(err, 'The payment could not be started. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const due = payment?.amountDue ?? quote?.amountDue ?? pkg.price;
  return (
    <div className="grid gap-8 md:grid-cols-2">
      <section aria-labelledby="summary-title" className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
        <h2 id="summary-title" className="text-lg font-bold text-ink">
          Order summary
        </h2>
        <p className="mt-4 font-semibold text-ink">{pkg.name}</p>
        <p className="mt-1 text-sm text-slate-600">{pkg.terms}</p>
        <dl className="mt-6 space-y-2 border-t border-slate-200 pt-4 text-sm">
          <div className="flex justify-between">
            <dt className="text-slate-600">Price</dt>
            <dd className="font-medium text-ink">{formatPrice(pkg.price)}</dd>
          </div>
          {quote && (
            <div className="flex justify-between" data-coupon>
              <dt className="text-slate-600">
                Coupon {quote.code}: {quote.description}
              </dt>
              <dd className="font-medium text-emerald-700">−{formatPrice(pkg.price - quote.amountDue)}</dd>
            </div>
          )}
          <div className="flex justify-between border-t border-slate-200 pt-3 text-base">
            <dt className="font-semibold text-ink">Due today</dt>
            <dd className="font-bold text-ink" data-total>
              {formatPrice(due)}
            </dd>
          </div>
        </dl>
      </section>
      {payment ? (
        <Elements stripe={stripePromise} options={{ clientSecret: payment.clientSecret, appearance: { theme: 'stripe', variables: { colorPrimary: '#2553e6' } } }}>
          <PayStep pkg={pkg} amountDue={payment.amountDue} />
        </Elements>
      ) : (
        <form ref={form} method="post" action={API.couponCheck} onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
          <input type="hidden" name="_form" value="package" />
          <input type="hidden" name="_return" value={returnTo} />
          <input type="hidden" name="packageId" value={pkg.id} />
          <Field id="package-email" label="Email" error={errors.email} hint="Your receipt, and the link to your client area, are sent here.">
            {(control) => <input {...control} name="email" type="email" autoComplete="email" required defaultValue={initial.email} className="input" />}
          </Field>
          <Field id="package-code" label="Coupon code" error={errors.code}>
            {(control) => (
              <div className="flex gap-2">
                <input {...control} name="code" autoComplete="off" defaultValue={initial.code} className="input" />
                <button type="submit" name="_intent" value="apply" className="btn-secondary shrink-0" disabled={busy}>
                  Apply
                </button>
              </div>
            )}
          </Field>
          {problem && (
            <p role="alert" className="text-sm text-red-700">
              {problem}
            </p>
          )}
          {awake && (
            <button type="submit" name="_intent" value="pay" className="btn-primary w-full py-3 text-base" disabled={busy}>
              {busy ? 'Please wait...' : 'Continue to payment'}
            </button>
          )}
        </form>
      )}
    </div>
  );
}
