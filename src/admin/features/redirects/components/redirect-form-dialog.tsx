// Add or edit one redirect: the old address (a path, or a full URL of the old site) and where
// it now leads.
import { useSchemaForm } from '#admin/lib/schema-form.ts';
import { TextField } from '#admin/ui/controls.tsx';
import { FormDialog } from '#admin/ui/form-dialog.tsx';
import { toast } from '#lib/toast.ts';
import { createRedirect, RedirectInputSchema, updateRedirect, type Redirect, type RedirectInput } from '#admin/features/redirects/api/redirects.ts';

interface Values {
  fromPath: string;
  toPath: string;
}

interface Props {
  /** null: a new redirect. */
  redirect: Redirect | null;
  onClose: () => void;
  onSaved: (redirect: Redirect) => void;
}

export function RedirectFormDialog({ redirect, onClose, onSaved }: Props) {
  const { busy, bind, submit } = useSchemaForm<Values, RedirectInput>(
    () => ({ fromPath: redirect?.fromPath ?? '', toPath: redirect?.toPath ?? '' }),
    (v) => RedirectInputSchema.safeParse(v),
    async (data) => {
      const saved = redirect ? await updateRedirect(redirect.id, data) : await createRedirect(data);
      toast({ title: redirect ? 'Redirect updated' : 'Redirect added', description: `${saved.fromPath} now leads to ${saved.toPath}.` });
      onSaved(saved);
    },
  );

  return (
    <FormDialog
      open
      onClose={onClose}
      title={redirect ? 'Edit Redirect' : 'Add Redirect'}
      description="Visitors and search engines asking for the old address are sent on to the new one (301). A page that exists is never redirected."
      submitLabel={redirect ? 'Save Changes' : 'Add Redirect'}
      busy={busy}
      onSubmit={(form) => void submit(form)}
      size="md"
    >
      <TextField
        id="redirect-from"
        name="fromPath"
        label="Old address"
        {...bind('fromPath')}
        hint="A path such as /2019/05/my-post, or a full address of the old site"
        placeholder="/2019/05/my-post"
        autoFocus
        required
        spellCheck={false}
        maxLength={500}
      />
      <TextField
        id="redirect-to"
        name="toPath"
        label="New address"
        {...bind('toPath')}
        hint="A path of this site such as /blog/my-post, or a full http(s) address"
        placeholder="/blog/my-post"
        required
        spellCheck={false}
        maxLength={500}
      />
    </FormDialog>
  );
}
