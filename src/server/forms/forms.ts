// Sign-up forms: each has its own page (/f/{slug}), words, tags a confirmed sign-up gets and an
// optional free download. The newsletter records every sign-up (its consent record and
// history); this capability says what a form showed, and reacts when a sign-up through it is
// confirmed (forms/incentive.ts).
import { and, count, countDistinct, eq, inArray, isNotNull, isNull, ne, notExists, sql } from 'drizzle-orm';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { products } from '#db/schema/commerce.ts';
import { consentRecords, incentiveDeliveries, signupForms } from '#db/schema/forms.ts';
import { getDb } from '#server/db.ts';
import { badRequest, notFound } from '#server/http/errors.ts';
import { genericWording, type Signup } from '#server/newsletter/consent.ts';
import type { FormDto, FormInput, FormWording } from '#shared/schemas/forms.ts';

export type SignupForm = typeof signupForms.$inferSelect;

const tagsOf = (form: Pick<SignupForm, 'tags'>) => JSON.parse(form.tags) as string[];

/** The words a form shows: its own, else the generic form's. */
export function wordingOf(form: Pick<SignupForm, 'heading' | 'text' | 'buttonLabel'>): FormWording {
  const generic = genericWording();
  return { heading: form.heading ?? generic.heading, text: form.text ?? generic.text, button: form.buttonLabel ?? generic.button };
}

/** Confirmed sign-ups per form, and of those how many lack the form's current incentive. */
function countsOf(formIds: number[]): Map<number, { confirmed: number; withoutIncentive: number }> {
  const db = getDb();
  const out = new Map<number, { confirmed: number; withoutIncentive: number }>();
  if (formIds.length === 0) return out;
  const confirmed = db
    .select({ formId: consentRecords.formId, n: countDistinct(consentRecords.subscriberId) })
    .from(consentRecords)
    .where(isNotNull(consentRecords.confirmedAt))
    .groupBy(consentRecords.formId)
    .all();
  for (const { formId, n } of confirmed) if (formId !== null) out.set(formId, { confirmed: n, withoutIncentive: 0 });
  for (const id of formIds) if (!out.has(id)) out.set(id, { confirmed: 0, withoutIncentive: 0 });
  for (const form of db
    .select({ id: signupForms.id })
    .from(signupForms)
    .where(and(isNotNull(signupForms.incentiveProductId), inArray(signupForms.id, formIds)))
    .all()) {
    const entry = out.get(form.id);
    if (entry) entry.withoutIncentive = withoutIncentiveIds(form.id).length;
  }
  return out;
}

const toDto = (form: SignupForm, productName: string | null, counts: { confirmed: number; withoutIncentive: number } | undefined): FormDto => ({
  id: form.id,
  name: form.name,
  slug: form.slug,
  heading: form.heading,
  text: form.text,
  buttonLabel: form.buttonLabel,
  tags: tagsOf(form),
  incentiveProductId: form.incentiveProductId,
  incentiveProductName: productName,
  thankYou: form.thankYou,
  confirmed: counts?.confirmed ?? 0,
  withoutIncentive: counts?.withoutIncentive ?? 0,
  createdAt: form.createdAt,
  updatedAt: form.updatedAt,
});

const selectWithProduct = () => getDb().select({ form: signupForms, productName: products.name }).from(signupForms).leftJoin(products, eq(products.id, signupForms.incentiveProductId));

/** Every form, by name, with its confirmed sign-ups. */
export function listForms(): FormDto[] {
  const rows = selectWithProduct().orderBy(signupForms.name, signupForms.id).all();
  const counts = countsOf(rows.map((r) => r.form.id));
  return rows.map((r) => toDto(r.form, r.productName, counts.get(r.form.id)));
}

/** One form (404 when unknown). */
export function getForm(id: number): FormDto {
  const row = selectWithProduct().where(eq(signupForms.id, id)).get();
  if (!row) throw notFound('Form not found');
  return toDto(row.form, row.productName, countsOf([id]).get(id));
}

/** The form at /f/{slug}, or null. */
export function getFormBySlug(slug: string): SignupForm | null {
  return getDb().select().from(signupForms).where(eq(signupForms.slug, slug)).get() ?? null;
}

/** Every form's slug and name (the site editor's placement choices). */
export function formChoices(): { slug: string; name: string }[] {
  return getDb().select({ slug: signupForms.slug, name: signupForms.name }).from(signupForms).orderBy(signupForms.name).all();
}

/** Refuses what the schema cannot see: an unknown incentive product, a slug another form has. */
function checkInput(input: FormInput, id: number | null): void {
  const db = getDb();
  if (input.incentiveProductId !== null && !db.select({ id: products.id }).from(products).where(eq(products.id, input.incentiveProductId)).get()) {
    throw badRequest('Incentive product not found', [{ path: ['incentiveProductId'], message: 'Incentive product not found' }]);
  }
  const taken = db
    .select({ id: signupForms.id })
    .from(signupForms)
    .where(and(eq(signupForms.slug, input.slug), id === null ? undefined : ne(signupForms.id, id)))
    .get();
  if (taken) throw badRequest('Another form has this slug', [{ path: ['slug'], message: 'Another form has this slug' }]);
}

const values = (input: FormInput) => ({ ...input, tags: JSON.stringify(input.tags) });

/** Makes a form. */
export function createForm(input: FormInput): FormDto {
  checkInput(input, null);
  const row = getDb().insert(signupForms).values(values(input)).returning().get();
  return getForm(row.id);
}

/**
 * Changes a form. Switching its incentive on (or to another product) sends nothing by itself:
 * those who confirmed before get it only when the owner asks (sendIncentive).
 */
export function updateForm(id: number, input: FormInput): FormDto {
  checkInput(input, id);
  const row = getDb()
    .update(signupForms)
    .set({ ...values(input), updatedAt: new Date() })
    .where(eq(signupForms.id, id))
    .returning()
    .get();
  if (!row) throw notFound('Form not found');
  return getForm(id);
}

/** Deletes a form; its sign-ups' consent records keep its slug. */
export function deleteForm(id: number): void {
  const row = getDb().delete(signupForms).where(eq(signupForms.id, id)).returning({ id: signupForms.id }).get();
  if (!row) throw notFound('Form not found');
}

/** Who confirmed through a form, still takes the newsletter, and was never sent its current incentive product. */
export function withoutIncentiveIds(formId: number): number[] {
  const db = getDb();
  const form = db.select({ productId: signupForms.incentiveProductId }).from(signupForms).where(eq(signupForms.id, formId)).get();
  if (!form?.productId) return [];
  return db
    .selectDistinct({ id: consentRecords.subscriberId })
    .from(consentRecords)
    .innerJoin(newsletterSubscribers, eq(newsletterSubscribers.id, consentRecords.subscriberId))
    .where(
      and(
        eq(consentRecords.formId, formId),
        isNotNull(consentRecords.confirmedAt),
        eq(newsletterSubscribers.isActive, true),
        isNull(newsletterSubscribers.bouncedAt),
        notExists(
          db
            .select({ one: sql`1` })
            .from(incentiveDeliveries)
            .where(and(eq(incentiveDeliveries.subscriberId, consentRecords.subscriberId), eq(incentiveDeliveries.productId, form.productId))),
        ),
      ),
    )
    .all()
    .map((r) => r.id);
}

/** Whether a subscriber confirmed a sign-up through a form. */
export function confirmedThrough(formId: number, subscriberId: number): boolean {
  const row = getDb()
    .select({ n: count() })
    .from(consentRecords)
    .where(and(eq(consentRecords.formId, formId), eq(consentRecords.subscriberId, subscriberId), isNotNull(consentRecords.confirmedAt)))
    .get();
  return (row?.n ?? 0) > 0;
}

/** What a sign-up through the form at `slug` records (400 for a slug no form has). */
export function formSignup(slug: string, page: string | null): Signup {
  const form = getFormBySlug(slug);
  if (!form) throw badRequest('This sign-up form no longer exists', [{ path: ['form'], message: 'This sign-up form no longer exists' }]);
  return { formId: form.id, formSlug: form.slug, page, wording: wordingOf(form) };
}

/** The tags a form gives. */
export const formTags = tagsOf;

/** What a page shows of the form placed on it (Admin → Site), or null for the generic form (none placed, or it was deleted). */
export function placedForm(slug: string): Pick<SignupForm, 'slug' | 'heading' | 'text' | 'buttonLabel'> | null {
  if (!slug) return null;
  const form = getFormBySlug(slug);
  return form && { slug: form.slug, heading: form.heading, text: form.text, buttonLabel: form.buttonLabel };
}
