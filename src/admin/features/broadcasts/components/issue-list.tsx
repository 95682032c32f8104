// /admin/newsletter/issues: every issue of the newsletter with where its sending stands.
import { API } from '#shared/api-paths.ts';
import { useQuery } from '#admin/lib/query.ts';
import { Link } from '#admin/lib/link.tsx';
import { Badge, EmptyState, PageHeader } from '#admin/ui/controls.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { formatShortDate } from '#shared/format.ts';
import type { Broadcast } from '#admin/features/broadcasts/api/broadcasts.ts';

export const STATUS_TONE = { draft: 'grey', sending: 'blue', paused: 'amber', sent: 'green', cancelled: 'red' } as const;

export default function IssueList() {
  const list = useQuery<Broadcast[]>(API.broadcasts, 'Failed to load the issues');
  return (
    <>
      <PageHeader
        title="Newsletter issues"
        subtitle="Write an issue and send it to every confirmed subscriber"
        actions={
          <Link href="/admin/newsletter/issues/new" className="btn-primary">
            New issue
          </Link>
        }
      />
      {loadState(list, { loading: 'Loading issues', failed: 'Failed to load the issues' }) ??
        (list.data?.length === 0 ? (
          <EmptyState title="No issues yet" text="Write the first one: it goes to every confirmed subscriber." />
        ) : (
          <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
            {(list.data ?? []).map((b) => (
              <li key={b.id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-4">
                <span>
                  <Link href={`/admin/newsletter/issues/${b.id}`} className="font-semibold text-ink hover:text-brand-700">
                    {b.subject}
                  </Link>
                  <span className="block text-sm text-slate-600">
                    {b.startedAt ? `Sent ${formatShortDate(b.startedAt)}` : `Created ${formatShortDate(b.createdAt)}`}
                    {b.total > 0 && ` · ${b.sent} of ${b.total} sent${b.failed ? `, ${b.failed} failed` : ''}${b.bounced ? `, ${b.bounced} bounced` : ''}`}
                  </span>
                </span>
                <Badge tone={STATUS_TONE[b.status]}>{b.status}</Badge>
              </li>
            ))}
          </ul>
        ))}
    </>
  );
}
