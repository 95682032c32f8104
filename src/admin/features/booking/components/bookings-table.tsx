// Admin → Booking → bookings: upcoming (soonest first) or past, with the answers; cancel one with a
// message to the visitor, mark a no-show, export every booking as CSV.
import { useState } from 'react';
import { useQuery } from '#admin/lib/query.ts';
import { Badge, EmptyState } from '#admin/ui/controls.tsx';
import { FormDialog } from '#admin/ui/form-dialog.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { DataTable } from '#admin/ui/table.tsx';
import { toast } from '#lib/toast.ts';
import { API } from '#shared/api-paths.ts';
import { cancelAsOwner, markNoShow, type Booking } from '#admin/features/booking/api/booking.ts';

const when = (b: Booking, tz: string) =>
  `${new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(b.start))}`;

export function BookingsTable({ timeZone }: { timeZone: string }) {
  const [which, setWhich] = useState<'upcoming' | 'past'>('upcoming');
  const list = useQuery<Booking[]>(API.bookings(which), 'Failed to load the bookings');
  const [rows, setRows] = useState<Booking[] | null>(null);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const [busy, setBusy] = useState(false);
  const shown = rows ?? list.data ?? [];
  const replace = (b: Booking) => setRows(shown.map((r) => (r.id === b.id ? b : r)));

  return (
    <section aria-labelledby="bookings-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="bookings-heading" className="text-lg font-semibold text-ink">
          Bookings
        </h2>
        <div className="flex gap-2">
          {(['upcoming', 'past'] as const).map((w) => (
            <button
              key={w}
              type="button"
              aria-pressed={which === w}
              className={which === w ? 'btn-primary' : 'btn-secondary'}
              onClick={() => {
                setRows(null);
                setWhich(w);
              }}
            >
              {w === 'upcoming' ? 'Upcoming' : 'Past'}
            </button>
          ))}
          <a href={API.bookingsExport} className="btn-secondary" download>
            Export CSV
          </a>
        </div>
      </div>
      {loadState(list, { loading: 'Loading bookings', failed: 'Failed to load the bookings' }) ??
        (shown.length === 0 ? (
          <EmptyState title={which === 'upcoming' ? 'No upcoming bookings' : 'No past bookings'} text="Bookings made on /book show here." />
        ) : (
          <DataTable caption={`${which === 'upcoming' ? 'Upcoming' : 'Past'} bookings`} columns={['When', 'Who', 'Type', 'Answers', 'Status', { label: 'Actions', hidden: true }]}>
            {shown.map((b) => (
              <tr key={b.id}>
                <td className="px-4 py-3 whitespace-nowrap">{when(b, timeZone)}</td>
                <td className="px-4 py-3">
                  <span className="font-medium text-ink">{b.name}</span>
                  <span className="block text-slate-600">{b.email}</span>
                </td>
                <td className="px-4 py-3">{b.type.name}</td>
                <td className="px-4 py-3 text-slate-700">{Object.values(b.answers).length === 0 ? '—' : Object.values(b.answers).map((a, i) => <p key={i}>{a}</p>)}</td>
                <td className="px-4 py-3">
                  <Badge tone={b.status === 'cancelled' ? 'red' : b.noShow ? 'amber' : 'green'}>{b.status === 'cancelled' ? 'cancelled' : b.noShow ? 'no-show' : 'confirmed'}</Badge>
                </td>
                <td className="px-4 py-3 text-right whitespace-nowrap">
                  {b.status === 'confirmed' && which === 'upcoming' && (
                    <button type="button" className="btn-secondary" onClick={() => setCancelling(b)}>
                      Cancel…
                    </button>
                  )}
                  {b.status === 'confirmed' && which === 'past' && (
                    <button type="button" className="btn-secondary" onClick={() => void markNoShow(b.id, !b.noShow).then(replace, () => undefined)}>
                      {b.noShow ? 'Attended' : 'No-show'}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        ))}
      <FormDialog
        open={cancelling !== null}
        onClose={() => setCancelling(null)}
        title="Cancel this booking?"
        description={cancelling ? `${cancelling.name} gets an e-mail and their calendar drops the event.` : undefined}
        submitLabel="Cancel booking"
        busyLabel="Cancelling..."
        busy={busy}
        size="md"
        onSubmit={(form) => {
          if (!cancelling) return;
          setBusy(true);
          const reason = new FormData(form).get('reason');
          cancelAsOwner(cancelling.id, typeof reason === 'string' ? reason : '')
            .then(
              (b) => {
                replace(b);
                toast({ title: 'Booking cancelled' });
                setCancelling(null);
              },
              () => undefined,
            )
            .finally(() => setBusy(false));
        }}
      >
        <div>
          <label htmlFor="cancel-reason" className="label">
            Message to them (optional)
          </label>
          <textarea id="cancel-reason" name="reason" rows={3} maxLength={1000} className="input" />
        </div>
      </FormDialog>
    </section>
  );
}
