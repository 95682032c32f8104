// Admin → Clients → coupons: the codes buyers type at a package's checkout (percent or amount
// off, the first payment or the first n months, an optional expiry and limit). A code's terms
// never change once made; it can be switched off.
import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '#admin/lib/query.ts';
import { Badge, EmptyState, Switch } from '#admin/ui/controls.tsx';
import { FormDialog } from '#admin/ui/form-dialog.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { DataTable } from '#admin/ui/table.tsx';
import { apiFieldErrors, check, formValues, type FieldErrors } from '#lib/form.ts';
import { errorMessage } from '#lib/api-client.ts';
import { toast } from '#lib/toast.ts';
import { API } from '#shared/api-paths.ts';
import { formatLongDate } from '#shared/format.ts';
import { createCoupon, CouponInputSchema, setCouponActive, type Coupon } from '#admin/features/clients/api/clients.ts';

/** The form's text as the schema's input: the amount in dollars becomes cents, empty fields null. */
function inputOf(v: Record<string, string>) {
  const number = (s: string | undefined) => (s?.trim() ? Number(s.replace(/[$,\s]/g, '')) : null);
  const value = number(v.value);
  return {
    code: v.code ?? '',
    kind: v.kind,
    value: v.kind === 'amount' && value !== null ? Math.round(value * 100) : value,
    duration: v.duration,
    months: v.duration === 'months' ? number(v.months) : null,
    expiresAt: v.expiresAt ? new Date(`${v.expiresAt}T23:59:59`).toISOString() : null,
    maxRedemptions: number(v.maxRedemptions),
  };
}

function Field({ id, label, error, children }: { id: string; label: string; error?: string | undefined; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {error && <p className="mt-1 text-sm text-red-700">{error}</p>}
    </div>
  );
}

export function Coupons() {
  const loaded = useQuery<Coupon[]>(API.coupons, 'Failed to load the coupons');
  const [rows, setRows] = useState<Coupon[] | null>(null);
  useEffect(() => setRows(loaded.data ?? null), [loaded.data]);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});

  async function submit(form: HTMLFormElement) {
    const checked = check(CouponInputSchema, inputOf(formValues(form)));
    if (checked.errors) return setErrors(checked.errors);
    setBusy(true);
    try {
      const made = await createCoupon(checked.data);
      setRows((all) => [...(all ?? []), made].sort((a, b) => a.code.localeCompare(b.code)));
      setOpen(false);
      setErrors({});
      toast({ title: `Coupon ${made.code} created` });
    } catch (err) {
      setErrors(apiFieldErrors(err));
      if (Object.keys(apiFieldErrors(err)).length === 0) toast({ title: 'Error', description: errorMessage(err, 'Failed to create the coupon.'), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="coupons-heading" className="space-y-4">
      <div className="flex items-center justify-between">
        <h2 id="coupons-heading" className="text-lg font-semibold text-ink">
          Coupons
        </h2>
        <button type="button" className="btn-primary" onClick={() => setOpen(true)}>
          New coupon
        </button>
      </div>
      {loadState(loaded, { loading: 'Loading coupons', failed: 'Failed to load the coupons' }) ??
        (rows && rows.length === 0 ? (
          <EmptyState title="No coupons yet" text="Buyers type a coupon's code at a package's checkout." />
        ) : (
          <DataTable caption="Coupons" columns={['Code', 'Discount', 'Expires', 'Used', 'Active']}>
            {(rows ?? []).map((c) => (
              <tr key={c.id}>
                <td className="px-4 py-3 font-mono font-semibold">{c.code}</td>
                <td className="px-4 py-3">{c.description}</td>
                <td className="px-4 py-3">{c.expiresAt ? formatLongDate(c.expiresAt) : '—'}</td>
                <td className="px-4 py-3">
                  {c.redemptions}
                  {c.maxRedemptions !== null && ` of ${c.maxRedemptions}`}
                </td>
                <td className="px-4 py-3">
                  <Switch
                    label={c.isActive ? 'On' : 'Off'}
                    checked={c.isActive}
                    onChange={(on) =>
                      void setCouponActive(c.id, on).then(
                        (u) => setRows((all) => (all ?? []).map((x) => (x.id === u.id ? u : x))),
                        () => undefined,
                      )
                    }
                  />
                  {!c.isActive && <Badge tone="grey">off</Badge>}
                </td>
              </tr>
            ))}
          </DataTable>
        ))}
      <FormDialog open={open} onClose={() => setOpen(false)} title="New coupon" submitLabel="Create coupon" busy={busy} onSubmit={(f) => void submit(f)}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="coupon-code" label="Code" error={errors.code}>
            <input id="coupon-code" name="code" className="mt-1 input uppercase" autoComplete="off" />
          </Field>
          <Field id="coupon-kind" label="Kind" error={errors.kind}>
            <select id="coupon-kind" name="kind" className="mt-1 input" defaultValue="percent">
              <option value="percent">Percent off</option>
              <option value="amount">Amount off (US dollars)</option>
            </select>
          </Field>
          <Field id="coupon-value" label="How much off" error={errors.value}>
            <input id="coupon-value" name="value" inputMode="decimal" className="mt-1 input" />
          </Field>
          <Field id="coupon-duration" label="Applies to" error={errors.duration}>
            <select id="coupon-duration" name="duration" className="mt-1 input" defaultValue="once">
              <option value="once">The first payment</option>
              <option value="months">The first months (monthly and instalment packages)</option>
            </select>
          </Field>
          <Field id="coupon-months" label="Months (when for months)" error={errors.months}>
            <input id="coupon-months" name="months" inputMode="numeric" className="mt-1 input" />
          </Field>
          <Field id="coupon-expires" label="Expires after (optional)" error={errors.expiresAt}>
            <input id="coupon-expires" name="expiresAt" type="date" className="mt-1 input" />
          </Field>
          <Field id="coupon-limit" label="Use limit (optional)" error={errors.maxRedemptions}>
            <input id="coupon-limit" name="maxRedemptions" inputMode="numeric" className="mt-1 input" />
          </Field>
        </div>
      </FormDialog>
    </section>
  );
}
