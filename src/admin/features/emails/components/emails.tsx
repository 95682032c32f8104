// /admin/emails: what the site sent (or is about to), with its status, attempts and last error;
// a failed or unsent message can be tried again.
import { API } from '#shared/api-paths.ts';
import { useState } from 'react';
import { mutate, useQuery } from '#admin/lib/query.ts';
import { Badge, EmptyState, PageHeader } from '#admin/ui/controls.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { DataTable } from '#admin/ui/table.tsx';
import { toast } from '#lib/toast.ts';
import { formatShortDate } from '#shared/format.ts';
import type { Json } from '#shared/json.ts';
import type { EmailDto } from '#shared/schemas/email.ts';

type Email = Json<EmailDto>;

const TONE = { sent: 'green', pending: 'amber', failed: 'red', unsent: 'grey' } as const;
const LABEL = { sent: 'Sent', pending: 'Pending', failed: 'Failed', unsent: 'Not sent' } as const;

export default function Emails() {
  const emails = useQuery<Email[]>(API.emails, 'Failed to fetch e-mails');
  const [busy, setBusy] = useState<number | null>(null);
  const list = emails.data ?? [];

  const retry = async (e: Email) => {
    setBusy(e.id);
    try {
      await mutate('POST', `${API.email(e.id)}/retry`, {}, { title: 'Error', description: 'Failed to retry the e-mail. Please try again.' });
      toast({ title: 'E-mail queued', description: `'${e.subject}' to ${e.to} will be sent again.` });
      await emails.refetch();
    } catch {
      // mutate() has said so
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <PageHeader title="E-mails" subtitle="Everything the site sends, newest first" />
      {loadState(emails, { loading: 'Loading e-mails', failed: 'Failed to fetch e-mails' }) ??
        (list.length === 0 ? (
          <EmptyState title="No e-mails yet" text="Confirmations, receipts and notifications appear here as the site sends them." />
        ) : (
          <DataTable caption="E-mails, newest first" columns={['Date', 'To', 'Subject', 'Status', { label: 'Attempts', align: 'right' }, 'Last error', { label: 'Actions', hidden: true }]}>
            {list.map((e) => (
              <tr key={e.id}>
                <td className="px-4 py-3 whitespace-nowrap text-slate-600">{formatShortDate(e.createdAt)}</td>
                <td className="px-4 py-3 text-slate-700">{e.to}</td>
                <td className="px-4 py-3 font-medium text-ink">{e.subject}</td>
                <td className="px-4 py-3">
                  <Badge tone={TONE[e.status]}>{LABEL[e.status]}</Badge>
                </td>
                <td className="px-4 py-3 text-right text-slate-700">{e.attempts}</td>
                <td className="max-w-xs truncate px-4 py-3 text-slate-600" title={e.lastError ?? undefined}>
                  {e.lastError ?? '—'}
                </td>
                <td className="px-4 py-3 text-right">
                  {(e.status === 'failed' || e.status === 'unsent') && (
                    <button type="button" className="btn-secondary px-3 py-1.5" disabled={busy === e.id} onClick={() => void retry(e)} aria-label={`Retry e-mail to ${e.to}: ${e.subject}`}>
                      Retry
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        ))}
    </>
  );
}
