// What a confirmed sign-up through a form gets: the form's tags and, once per person and
// product, an e-mail with links to the incentive's files. It runs as a listener on the
// newsletter's 'confirmed' event, inside the confirmation's transaction, so the e-mail is in
// the outbox exactly when the confirmation is stored. A visitor who never confirms gets nothing.
import { and, eq, sql } from 'drizzle-orm';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { products } from '#db/schema/commerce.ts';
import { incentiveDeliveries, signupForms } from '#db/schema/forms.ts';
import { grantFreeDownloads } from '#server/commerce/downloads.ts';
import { getDb } from '#server/db.ts';
import { badRequest, notFound } from '#server/http/errors.ts';
import { unsubscribeHeaders } from '#server/mail/layout.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { recordSubscriberEvent, type SubscriberEvent, type Tx } from '#server/newsletter/events.ts';
import { addTags } from '#server/newsletter/tags.ts';
import { unsubscribeLink, unsubscribeTokenOf } from '#server/newsletter/subscribers.ts';
import type { SendIncentiveDto, SendIncentiveInput } from '#shared/schemas/forms.ts';
import { confirmedThrough, formTags, withoutIncentiveIds, type SignupForm } from './forms.ts';
import { incentiveMail } from './mail.ts';

/** A sign-up through a form was confirmed (or made by an address confirmed already): its tags, then its download. */
export function onFormSignupConfirmed(tx: Tx, event: SubscriberEvent): void {
  if (event.what !== 'confirmed' || !event.ref?.startsWith('form:')) return;
  const form = tx
    .select()
    .from(signupForms)
    .where(eq(signupForms.slug, event.ref.slice('form:'.length)))
    .get();
  if (!form) return;
  const tags = formTags(form);
  if (tags.length > 0) addTags(tx, event.subscriberId, tags);
  if (form.incentiveProductId !== null) deliverIncentive(tx, form, event.subscriberId, false);
}

/**
 * E-mails the form's download to a subscriber, unless they were sent this product before
 * (`again` sends it anyway, the owner's 'Send again'). Answers whether an e-mail was queued.
 */
function deliverIncentive(tx: Tx, form: SignupForm, subscriberId: number, again: boolean): boolean {
  const productId = form.incentiveProductId;
  if (productId === null) return false;
  const subscriber = tx.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, subscriberId)).get();
  const product = tx.select({ name: products.name }).from(products).where(eq(products.id, productId)).get();
  // Only to an address that takes the newsletter: confirmed, not left, not bounced.
  if (!subscriber || !product || !subscriber.isActive || subscriber.bouncedAt) return false;
  // One per person and product: a second sign-up (through this form or another giving the same
  // download) sends nothing, unless the owner sends it again.
  const first = tx.insert(incentiveDeliveries).values({ subscriberId, productId, formId: form.id }).onConflictDoNothing().returning({ id: incentiveDeliveries.id }).get();
  if (!first) {
    if (!again) return false;
    tx.update(incentiveDeliveries)
      .set({ sends: sql`${incentiveDeliveries.sends} + 1`, sentAt: new Date() })
      .where(and(eq(incentiveDeliveries.subscriberId, subscriberId), eq(incentiveDeliveries.productId, productId)))
      .run();
  }
  const { downloads, days, limit } = grantFreeDownloads(tx, subscriberId, productId);
  if (downloads.length === 0) return false;
  const unsubscribe = unsubscribeLink(unsubscribeTokenOf(tx, subscriber));
  const mail = incentiveMail({ productName: product.name, downloads, days, limit, unsubscribeUrl: unsubscribe });
  enqueueMail(tx, { kind: 'form-incentive', to: subscriber.email, ...mail, headers: unsubscribeHeaders(unsubscribe) });
  recordSubscriberEvent(tx, { subscriberId, what: 'email', detail: mail.subject });
  return true;
}

/**
 * The owner sends a form's download by hand: to one subscriber who confirmed through it, again
 * (`subscriberId`); or to everyone who confirmed through it and was never sent this product
 * (an incentive switched on after they signed up: nothing goes to them by itself).
 */
export function sendIncentive(formId: number, input: SendIncentiveInput): SendIncentiveDto {
  const db = getDb();
  const form = db.select().from(signupForms).where(eq(signupForms.id, formId)).get();
  if (!form) throw notFound('Form not found');
  if (form.incentiveProductId === null) throw badRequest('This form has no download to send');
  if (input.subscriberId !== undefined) {
    if (!confirmedThrough(formId, input.subscriberId))
      throw badRequest('This person has not confirmed a sign-up through this form', [{ path: ['subscriberId'], message: 'Not a confirmed sign-up of this form' }]);
    const subscriberId = input.subscriberId;
    const sent = db.transaction((tx) => deliverIncentive(tx, form, subscriberId, true));
    return { sent: sent ? 1 : 0 };
  }
  let sent = 0;
  // A batch per transaction: a long list never holds the database for long.
  const ids = withoutIncentiveIds(formId);
  for (let i = 0; i < ids.length; i += 200) {
    const batch = ids.slice(i, i + 200);
    db.transaction((tx) => {
      for (const id of batch) if (deliverIncentive(tx, form, id, false)) sent++;
    });
  }
  return { sent };
}
