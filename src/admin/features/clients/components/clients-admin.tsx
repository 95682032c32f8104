// /admin/clients: everyone who bought a package, with each package's status, sessions used and
// left, payments and the owner's private notes; the actions add sessions, end a package and
// refund its last payment. Coupons are made and switched off below.
import { useEffect, useState } from 'react';
import { useQuery } from '#admin/lib/query.ts';
import { Badge, EmptyState, PageHeader, TextArea, TextField } from '#admin/ui/controls.tsx';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { toast } from '#lib/toast.ts';
import { API } from '#shared/api-paths.ts';
import { formatLongDate, formatPrice } from '#shared/format.ts';
import { addSessions, endPackage, PACKAGE_STATUS_LABEL, refundLast, saveNotes, type Client } from '#admin/features/clients/api/clients.ts';
import { Coupons } from './coupons';

type Pkg = Client['packages'][number];
const TONE = { pending: 'grey', active: 'green', past_due: 'amber', completed: 'blue', ended: 'grey', refunded: 'red', disputed: 'red' } as const;
const PAYMENT_LABEL = { pending: 'pending', succeeded: 'paid', failed: 'failed', refunded: 'refunded', disputed: 'disputed', lost: 'dispute lost' } as const;
const billingLine = (p: Pkg) =>
  p.billing === 'instalments'
    ? `${p.paymentsMade} of ${p.instalments} payments of ${formatPrice(p.amount)}`
    : p.billing === 'monthly'
      ? `${formatPrice(p.amount)} a month · ${p.paymentsMade} paid`
      : `${formatPrice(p.amount)} once`;

function PackageRow({ pkg, onChange }: { pkg: Pkg; onChange: (c: Client) => void }) {
  const [adding, setAdding] = useState('1');
  const [confirm, setConfirm] = useState<'end' | 'refund' | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<Client>, done: string) => {
    setBusy(true);
    try {
      onChange(await action());
      toast({ title: done });
    } catch {
      // toasted with the server's reason
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };
  const live = pkg.status === 'active' || pkg.status === 'past_due' || pkg.status === 'completed' || pkg.status === 'disputed';
  return (
    <li className="rounded-xl border border-slate-200 p-4" data-client-package={pkg.id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-ink">
          {pkg.packageName} <Badge tone={TONE[pkg.status]}>{PACKAGE_STATUS_LABEL[pkg.status]}</Badge>
        </p>
        <p className="text-sm text-slate-600">
          since {formatLongDate(pkg.createdAt)}
          {pkg.nextPaymentAt && ` · next payment ${formatLongDate(pkg.nextPaymentAt)}`}
        </p>
      </div>
      <p className="mt-1 text-sm text-slate-700">{billingLine(pkg)}</p>
      <p className="mt-1 text-sm text-slate-700" data-sessions>
        Sessions: {pkg.sessionsUsed} used, {pkg.sessionsLeft} left of {pkg.sessionsTotal}
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <div className="w-24">
          <TextField id={`add-${pkg.id}`} label="Sessions" inputMode="numeric" value={adding} onChange={(e) => setAdding(e.target.value)} />
        </div>
        <button
          type="button"
          className="btn-secondary"
          disabled={busy || !Number.isInteger(Number(adding)) || Number(adding) === 0}
          onClick={() => void run(() => addSessions(pkg.id, Number(adding)), 'Sessions added')}
        >
          Add sessions
        </button>
        {live && (
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => setConfirm('end')}>
            End package…
          </button>
        )}
        {pkg.paymentsMade > 0 && pkg.status !== 'refunded' && (
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => setConfirm('refund')}>
            Refund last payment…
          </button>
        )}
      </div>
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === 'end' ? `End ${pkg.packageName}?` : 'Refund the last payment?'}
        description={
          confirm === 'end'
            ? 'Its subscription is cancelled at Stripe (no further payment), its sessions can no longer be booked, and those booked for later are cancelled (the client is sent the cancellation).'
            : "The last payment is refunded in full through Stripe, and the package's download links stop working. A package paid at once is then refunded, and its sessions booked for later are cancelled."
        }
        confirmLabel={confirm === 'end' ? 'End package' : 'Refund'}
        busy={busy}
        onCancel={() => setConfirm(null)}
        onConfirm={() => void run(() => (confirm === 'end' ? endPackage(pkg.id) : refundLast(pkg.id)), confirm === 'end' ? 'Package ended' : 'Payment refunded')}
      />
    </li>
  );
}

function ClientCard({ client, onChange }: { client: Client; onChange: (c: Client) => void }) {
  const [notes, setNotes] = useState(client.notes);
  const [saving, setSaving] = useState(false);
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm" data-client={client.email}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold text-ink">{client.email}</h3>
        <p className="text-sm text-slate-600">{client.username ? `account: ${client.username}` : 'no account yet'}</p>
      </div>
      <ul className="mt-4 space-y-3">
        {client.packages.map((p) => (
          <PackageRow key={p.id} pkg={p} onChange={onChange} />
        ))}
      </ul>
      <details className="mt-4">
        <summary className="cursor-pointer text-sm font-medium text-slate-700">Payments ({client.payments.length})</summary>
        <ul className="mt-2 space-y-1 text-sm text-slate-700">
          {client.payments.map((o) => (
            <li key={o.id}>
              {formatLongDate(o.createdAt)} · {o.productName} · {formatPrice(o.amount)} · {PAYMENT_LABEL[o.status]}
            </li>
          ))}
        </ul>
      </details>
      <form
        className="mt-4 space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          setSaving(true);
          saveNotes(client.id, notes)
            .then((c) => {
              onChange(c);
              toast({ title: 'Notes saved' });
            })
            .catch(() => undefined)
            .finally(() => setSaving(false));
        }}
      >
        <TextArea id={`notes-${client.id}`} label="Notes" hint="Private: only admins see them." rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
        <button type="submit" className="btn-secondary" disabled={saving || notes === client.notes}>
          {saving ? 'Saving...' : 'Save notes'}
        </button>
      </form>
    </li>
  );
}

export default function ClientsAdmin() {
  const loaded = useQuery<Client[]>(API.clients, 'Failed to load the clients');
  const [clients, setClients] = useState<Client[] | null>(null);
  useEffect(() => setClients(loaded.data ?? null), [loaded.data]);
  const replace = (c: Client) => setClients((all) => (all ?? []).map((x) => (x.id === c.id ? c : x)));
  return (
    <>
      <PageHeader title="Clients" subtitle="Everyone who bought a coaching package" />
      <div className="space-y-10">
        <section aria-labelledby="clients-heading" className="space-y-4">
          <h2 id="clients-heading" className="text-lg font-semibold text-ink">
            Clients
          </h2>
          {loadState(loaded, { loading: 'Loading clients', failed: 'Failed to load the clients' }) ??
            (clients && clients.length === 0 ? (
              <EmptyState title="No clients yet" text="Someone who buys a package on /work-with-me shows here." />
            ) : (
              <ul className="space-y-4">
                {(clients ?? []).map((c) => (
                  <ClientCard key={c.id} client={c} onChange={replace} />
                ))}
              </ul>
            ))}
        </section>
        <Coupons />
      </div>
    </>
  );
}
