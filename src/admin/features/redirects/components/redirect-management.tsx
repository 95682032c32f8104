// /admin/redirects: old addresses (imported WordPress permalinks and the owner's own) with the
// visits each answered, and add / edit / delete.
import { StatCard } from '#admin/ui/controls.tsx';
import { ArrowRightIcon, ChartIcon, GlobeIcon, PencilIcon } from '#admin/ui/icons.tsx';
import { ResourceScreen } from '#admin/ui/resource-screen.tsx';
import { toast } from '#lib/toast.ts';
import { deleteRedirect, useRedirects, type Redirect } from '#admin/features/redirects/api/redirects.ts';
import { RedirectFormDialog } from './redirect-form-dialog.tsx';
import { RedirectRow } from './redirect-row.tsx';

export default function RedirectManagement() {
  return (
    <ResourceScreen<Redirect>
      query={useRedirects()}
      title="Redirects"
      subtitle="Old addresses that send visitors on to a page of this site."
      noun="Redirect"
      plural="Redirects"
      newLabel="Add Redirect"
      stats={{
        label: 'Redirect statistics',
        className: 'grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4',
        cards: (redirects, value) => {
          const imported = redirects.filter((r) => r.source !== 'manual').length;
          return (
            <>
              <StatCard label="Total Redirects" value={value(redirects.length)} icon={<ArrowRightIcon />} detail="Old addresses kept alive" />
              <StatCard label="Imported" value={value(imported)} icon={<GlobeIcon />} detail="Added by an import" />
              <StatCard label="Added by Hand" value={value(redirects.length - imported)} icon={<PencilIcon />} detail="Added here" />
              <StatCard label="Total Hits" value={value(redirects.reduce((sum, r) => sum + r.hits, 0))} icon={<ChartIcon />} detail="Visits sent on" />
            </>
          );
        },
      }}
      list={{
        loading: 'Loading redirects',
        failed: 'Redirects could not be loaded',
        empty: { title: 'No redirects yet', text: 'Send an old address (a moved post, a retired page) on to where it lives now.' },
        className: 'space-y-3',
        item: (redirect, actions) => <RedirectRow key={redirect.id} redirect={redirect} onEdit={actions.edit} onDelete={actions.remove} />,
      }}
      remove={async (redirect) => {
        await deleteRedirect(redirect.id);
        toast({ title: 'Redirect deleted', description: `${redirect.fromPath} no longer leads anywhere.` });
      }}
      confirmText={(redirect) => `This action cannot be undone. This will permanently delete the redirect from "${redirect.fromPath}"; that address will answer "not found" again.`}
      dialog={(redirect, done) => <RedirectFormDialog redirect={redirect} onClose={done.close} onSaved={done.saved} />}
    />
  );
}
