// /admin/forms: sign-up forms with their confirmed sign-ups, and add / edit / delete.
import { StatCard } from '#admin/ui/controls.tsx';
import { ChartIcon, GlobeIcon, PencilIcon } from '#admin/ui/icons.tsx';
import { ResourceScreen } from '#admin/ui/resource-screen.tsx';
import { toast } from '#lib/toast.ts';
import { deleteForm, useForms, type SignupForm } from '#admin/features/forms/api/forms.ts';
import { FormFormDialog } from './form-dialog.tsx';
import { FormRow } from './form-row.tsx';

export default function FormManagement() {
  const query = useForms();
  return (
    <ResourceScreen<SignupForm>
      query={query}
      title="Forms"
      subtitle="Sign-up forms: each with its own page, tags and an optional free download sent once the address is confirmed."
      noun="Form"
      plural="Forms"
      stats={{
        label: 'Form statistics',
        className: 'grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3',
        cards: (forms, value) => (
          <>
            <StatCard label="Forms" value={value(forms.length)} icon={<PencilIcon />} detail="Each at /f/slug" />
            <StatCard label="With a Download" value={value(forms.filter((f) => f.incentiveProductId !== null).length)} icon={<GlobeIcon />} detail="Sent after confirming" />
            <StatCard label="Confirmed Sign-ups" value={value(forms.reduce((n, f) => n + f.confirmed, 0))} icon={<ChartIcon />} detail="Through any form" />
          </>
        ),
      }}
      list={{
        loading: 'Loading forms',
        failed: 'Forms could not be loaded',
        empty: { title: 'No forms yet', text: 'Make a landing page with a free guide: people get it once they confirm their address.' },
        className: 'space-y-3',
        item: (form, actions) => <FormRow key={form.id} form={form} onEdit={actions.edit} onDelete={actions.remove} onChanged={() => void query.refetch()} />,
      }}
      remove={async (form) => {
        await deleteForm(form.id);
        toast({ title: 'Form deleted', description: `/f/${form.slug} no longer exists.` });
      }}
      confirmText={(form) =>
        `This action cannot be undone. This will permanently delete the form "${form.name}"; /f/${form.slug} will answer "not found", and pages it was placed on show the generic form.`
      }
      dialog={(form, done) => <FormFormDialog form={form} onClose={done.close} onSaved={done.saved} />}
    />
  );
}
