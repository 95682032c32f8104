// Add or edit one sign-up form: its name and address, the words its page shows, the tags a
// confirmed sign-up gets, the free download and the thank-you message.
import { useSchemaForm } from '#admin/lib/schema-form.ts';
import { TextArea, TextField } from '#admin/ui/controls.tsx';
import { FormDialog } from '#admin/ui/form-dialog.tsx';
import { toast } from '#lib/toast.ts';
import { createForm, FormInputSchema, updateForm, useProductChoices, type FormInput, type SignupForm } from '#admin/features/forms/api/forms.ts';

interface Values {
  name: string;
  slug: string;
  heading: string;
  text: string;
  buttonLabel: string;
  /** Comma-separated tag names. */
  tags: string;
  /** A product id, or '' for none. */
  incentiveProductId: string;
  thankYou: string;
}

interface Props {
  /** null: a new form. */
  form: SignupForm | null;
  onClose: () => void;
  onSaved: (form: SignupForm) => void;
}

const toInput = (v: Values) => ({
  ...v,
  tags: v.tags
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== ''),
  incentiveProductId: v.incentiveProductId === '' ? null : Number(v.incentiveProductId),
});

export function FormFormDialog({ form, onClose, onSaved }: Props) {
  const products = useProductChoices();
  const { busy, bind, submit, values, set, errors } = useSchemaForm<Values, FormInput>(
    () => ({
      name: form?.name ?? '',
      slug: form?.slug ?? '',
      heading: form?.heading ?? '',
      text: form?.text ?? '',
      buttonLabel: form?.buttonLabel ?? '',
      tags: form?.tags.join(', ') ?? '',
      incentiveProductId: form?.incentiveProductId ? String(form.incentiveProductId) : '',
      thankYou: form?.thankYou ?? '',
    }),
    (v) => FormInputSchema.safeParse(toInput(v)),
    async (data) => {
      const saved = form ? await updateForm(form.id, data) : await createForm(data);
      toast({ title: form ? 'Form updated' : 'Form created', description: `/f/${saved.slug} is ready.` });
      onSaved(saved);
    },
  );

  return (
    <FormDialog
      open
      onClose={onClose}
      title={form ? 'Edit Form' : 'New Form'}
      description="A sign-up form has its own page (/f/slug) and can be placed on the home page, /newsletter and under posts (Admin → Site)."
      submitLabel={form ? 'Save Changes' : 'Create Form'}
      busy={busy}
      onSubmit={(el) => void submit(el)}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id="form-name" name="name" label="Name" {...bind('name')} hint="For you: the admin lists forms by it" required maxLength={255} autoFocus />
        <TextField id="form-slug" name="slug" label="Slug" {...bind('slug')} hint="Its page is /f/slug; also the source of who signs up" required maxLength={60} spellCheck={false} />
      </div>
      <TextField id="form-heading" name="heading" label="Heading" {...bind('heading')} hint="Empty: the newsletter's name" maxLength={200} />
      <TextArea id="form-text" name="text" label="Text" {...bind('text')} hint="What the visitor signs up for; kept with each sign-up as the wording shown" maxLength={2000} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id="form-button" name="buttonLabel" label="Button label" {...bind('buttonLabel')} hint="Empty: Subscribe" maxLength={60} />
        <TextField id="form-tags" name="tags" label="Tags" {...bind('tags')} hint="Comma-separated; added once the sign-up is confirmed" />
      </div>
      <div>
        <label htmlFor="form-incentive" className="block text-sm font-medium text-slate-700">
          Free download
        </label>
        <select
          id="form-incentive"
          name="incentiveProductId"
          className="mt-1 input"
          value={values.incentiveProductId}
          onChange={(e) => set('incentiveProductId', e.target.value)}
          aria-invalid={errors.incentiveProductId ? true : undefined}
          aria-describedby="form-incentive-hint"
        >
          <option value="">None</option>
          {(products.data ?? []).map((p) => (
            <option key={p.id} value={String(p.id)}>
              {p.name}
            </option>
          ))}
        </select>
        <p id="form-incentive-hint" className="mt-1 text-sm text-slate-500">
          A product's files, e-mailed once to each person after they confirm (it need not be for sale).
        </p>
        {errors.incentiveProductId && <p className="mt-1 text-sm text-red-700">{errors.incentiveProductId}</p>}
      </div>
      <TextArea id="form-thank-you" name="thankYou" label="Thank-you message" {...bind('thankYou')} hint="Shown after the form is sent, before 'check your inbox'" maxLength={1000} />
    </FormDialog>
  );
}
