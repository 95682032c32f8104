// What each person agreed to: one consent record per sign-up (which form, the page, the words
// shown, when asked, when confirmed), and the 'subscribed' / 'confirmed' history that goes with
// it. Every sign-up has one, through a form or the site's generic newsletter form, so the
// newsletter writes them; forms pass what they showed and react to the events by listening.
import { and, asc, eq, isNull } from 'drizzle-orm';
import { consentRecords } from '#db/schema/forms.ts';
import { getDb } from '#server/db.ts';
import { publishedBrand } from '#server/site/current.ts';
import type { ConsentRecordDto, FormWording } from '#shared/schemas/forms.ts';
import { recordSubscriberEvent, type Tx } from './events.ts';

/** Where a sign-up came from and what the visitor read there. */
export interface Signup {
  /** The sign-up form (null for the site's generic newsletter form). */
  formId: number | null;
  formSlug: string | null;
  /** The page the form was sent from: a path of this site, or another site's address. */
  page: string | null;
  wording: FormWording;
}

/** The wording of the site's generic newsletter form. */
export function genericWording(): FormWording {
  const { newsletterName } = publishedBrand();
  return { heading: newsletterName, text: `Subscribe to ${newsletterName}: one e-mail a week. Unsubscribe any time with one click.`, button: 'Subscribe' };
}

/** A sign-up through the site's generic newsletter form, from `page`. */
export const genericSignup = (page: string | null): Signup => ({ formId: null, formSlug: null, page, wording: genericWording() });

const formRef = (slug: string | null) => (slug ? `form:${slug}` : null);

/**
 * Records a sign-up in `tx`: its consent record and 'subscribed'. `confirmed` (the address was
 * confirmed already, or no confirmation is asked) also marks it confirmed now and records
 * 'confirmed', so whatever listens (a form's tags and download) reacts at once.
 */
export function recordSignup(tx: Tx, subscriberId: number, signup: Signup, confirmed: boolean): void {
  const now = new Date();
  tx.insert(consentRecords)
    .values({ subscriberId, formId: signup.formId, formSlug: signup.formSlug, page: signup.page, wording: JSON.stringify(signup.wording), askedAt: now, confirmedAt: confirmed ? now : null })
    .run();
  recordSubscriberEvent(tx, { subscriberId, what: 'subscribed', detail: signup.formSlug, ref: formRef(signup.formSlug) });
  if (confirmed) recordSubscriberEvent(tx, { subscriberId, what: 'confirmed', detail: signup.formSlug, ref: formRef(signup.formSlug) });
}

/**
 * The person followed a confirmation (ours or Kit's): every sign-up of theirs still waiting is
 * confirmed now, with one 'confirmed' per form they signed up through (none: the generic form).
 */
export function confirmSignups(tx: Tx, subscriberId: number): void {
  const waiting = tx
    .update(consentRecords)
    .set({ confirmedAt: new Date() })
    .where(and(eq(consentRecords.subscriberId, subscriberId), isNull(consentRecords.confirmedAt)))
    .returning({ formSlug: consentRecords.formSlug })
    .all();
  const slugs = new Set(waiting.map((r) => r.formSlug));
  if (slugs.size === 0) slugs.add(null);
  for (const slug of slugs) recordSubscriberEvent(tx, { subscriberId, what: 'confirmed', detail: slug, ref: formRef(slug) });
}

/** A subscriber's consent records, oldest first (the person's page and their data export). */
export function consentRecordsOf(subscriberId: number, tx: Pick<Tx, 'select'> = getDb()): ConsentRecordDto[] {
  return tx
    .select()
    .from(consentRecords)
    .where(eq(consentRecords.subscriberId, subscriberId))
    .orderBy(asc(consentRecords.askedAt), asc(consentRecords.id))
    .all()
    .map((r) => ({ form: r.formSlug, page: r.page, wording: JSON.parse(r.wording) as FormWording, askedAt: r.askedAt, confirmedAt: r.confirmedAt }));
}
