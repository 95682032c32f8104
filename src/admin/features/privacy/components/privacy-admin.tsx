// Admin → Privacy: the requests people made (kind, state, dates, the day the answer is due) and
// the owner's own copy or erasure of an address, for a request that came another way.
import { useState, type FormEvent } from 'react';
import { Badge, EmptyState, PageHeader, TextField } from '#admin/ui/controls.tsx';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { DataTable } from '#admin/ui/table.tsx';
import { check } from '#lib/form.ts';
import { toast } from '#lib/toast.ts';
import { formatShortDate } from '#shared/format.ts';
import { PrivacyAddressSchema, eraseAddress, exportUrl, usePrivacyRequests, type PrivacyRequest } from '#admin/features/privacy/api/privacy.ts';

const KIND = { access: 'Copy', erasure: 'Erasure' } as const;
const STATE = { sent: 'Link sent', expired: 'Link expired', done: 'Done' } as const;
const TONE = { sent: 'amber', expired: 'grey', done: 'green' } as const;

export default function PrivacyAdmin() {
  const requests = usePrivacyRequests();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const list = requests.data ?? [];

  const valid = (): string | null => {
    const parsed = check(PrivacyAddressSchema, { email });
    setError(parsed.errors?.email);
    return parsed.data?.email ?? null;
  };
  const download = (e: FormEvent) => {
    e.preventDefault();
    const address = valid();
    if (!address) return;
    window.location.assign(exportUrl(address));
    setTimeout(() => void requests.refetch(), 1000);
  };
  const erase = async () => {
    const address = valid();
    if (!address) return;
    setBusy(true);
    try {
      const done = await eraseAddress(address);
      toast({
        title: 'Erased',
        description: `Subscriber ${done.subscriber}, account ${done.account}${done.accountKept ? ' (a staff account was kept)' : ''}, comments ${done.comments}, bookings cancelled ${done.bookingsCancelled}, orders ${done.orders}.`,
      });
      setEmail('');
      await requests.refetch();
    } catch {
      // mutate() has said so
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <>
      <PageHeader title="Privacy" subtitle="Requests for a copy or the erasure of a person's data. Each must be answered within 30 days." />
      <form onSubmit={download} className="mb-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm" noValidate>
        <h2 className="text-base font-semibold text-ink">For a request that came another way</h2>
        <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex-1">
            <TextField id="privacy-email" label="The person's e-mail address" type="email" value={email} error={error} onChange={(e) => setEmail(e.target.value)} />
          </div>
          <button type="submit" className="btn-secondary">
            Download their data
          </button>
          <button
            type="button"
            className="btn bg-red-600 text-white hover:bg-red-700"
            onClick={() => {
              if (valid()) setConfirming(true);
            }}
          >
            Erase their data
          </button>
        </div>
      </form>
      {loadState(requests, { loading: 'Loading privacy requests', failed: 'Failed to fetch privacy requests' }) ??
        (list.length === 0 ? (
          <EmptyState title="No privacy requests yet" text="Requests made at /privacy/request, and your own exports and erasures, appear here." />
        ) : (
          <DataTable caption="Privacy requests, newest first" columns={['Asked', 'What', 'By', 'State', 'Answered', 'Due by']}>
            {list.map((r: PrivacyRequest) => (
              <tr key={r.id}>
                <td className="px-4 py-3 whitespace-nowrap text-slate-600">{formatShortDate(r.createdAt)}</td>
                <td className="px-4 py-3 font-medium text-ink">{KIND[r.kind]}</td>
                <td className="px-4 py-3 text-slate-700">{r.via === 'owner' ? 'You' : 'The person'}</td>
                <td className="px-4 py-3">
                  <Badge tone={TONE[r.state]}>{STATE[r.state]}</Badge>
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-600">{r.doneAt ? formatShortDate(r.doneAt) : '—'}</td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-600">{r.state === 'done' ? '—' : formatShortDate(r.dueAt)}</td>
              </tr>
            ))}
          </DataTable>
        ))}
      <ConfirmDialog
        open={confirming}
        title="Erase this person's data?"
        description="Their subscription and account go, their comments lose their name, their upcoming bookings are cancelled and their orders lose their address. This cannot be undone."
        confirmLabel="Erase"
        busy={busy}
        onConfirm={() => void erase()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
