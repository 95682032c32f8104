// Admin → Newsletter: whether the From domain's DNS is set up as Gmail's and Yahoo's bulk-sender
// rules ask (SPF, the DKIM key, DMARC), saying plainly what is missing. 'Check again' asks DNS
// now instead of the answer kept for a minute.
import { useState } from 'react';
import { useQuery } from '#admin/lib/query.ts';
import { Badge } from '#admin/ui/controls.tsx';
import { API } from '#shared/api-paths.ts';
import type { DnsCheck } from '#shared/schemas/broadcast.ts';

export function SendingDomain() {
  const [fresh, setFresh] = useState(0);
  const check = useQuery<DnsCheck>(fresh ? `${API.broadcastDnsCheck}?fresh=1&n=${fresh}` : API.broadcastDnsCheck, 'Failed to check the sending domain');
  const data = check.data;
  return (
    <section aria-labelledby="sending-domain" className="mb-8 rounded-2xl border border-slate-200 bg-white p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="sending-domain" className="text-lg font-semibold text-ink">
            Sending domain{data ? `: ${data.domain}` : ''}
          </h2>
          <p className="text-sm text-slate-600">Mailbox providers expect SPF, DKIM and DMARC from anyone who sends to many people.</p>
        </div>
        <button type="button" className="btn-secondary" disabled={check.loading} onClick={() => setFresh((n) => n + 1)}>
          {check.loading ? 'Checking…' : 'Check again'}
        </button>
      </div>
      {check.error && !data && <p className="mt-3 text-sm text-red-700">Failed to check the sending domain.</p>}
      {data && (
        <ul className="mt-4 space-y-2">
          {data.checks.map((c) => (
            <li key={c.name} className="flex items-start gap-3 text-sm">
              <Badge tone={c.ok ? 'green' : 'red'}>{c.ok ? `${c.name} ok` : `${c.name} missing`}</Badge>
              <span className="text-slate-700">{c.message}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
