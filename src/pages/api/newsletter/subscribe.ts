import { campaignOf, countGoal, rememberVisit, visitOf } from '#server/analytics/goals.ts';
import { tagCampaign } from '#server/newsletter/activity.ts';
import { getDb } from '#server/db.ts';
import { screenBots } from '#server/http/bots.ts';
import { endpoint, json } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { CHECK_INBOX, confirmsFirst, subscribe } from '#server/newsletter/subscribers.ts';
import { SubscribeSchema } from '#shared/schemas/newsletter.ts';

export const POST = endpoint({ auth: 'public', changesContent: false, body: SubscribeSchema, form: { success: (a) => String(a.message) } }, ({ body, context }) => {
  hit(LIMITS.subscribe, clientKey(context));
  // A robot is answered like a person, and nothing is stored or sent.
  if (screenBots(body) === 'bot') {
    const pending = confirmsFirst();
    return json({ email: body.email, alreadySubscribed: false, pending, message: pending ? CHECK_INBOX : 'Thanks for subscribing!' }, 201);
  }
  const { subscriber, created, pending, message } = subscribe(body);
  // A new sign-up from a campaign's page carries its name: the person did come from it.
  if (created) tagCampaign(getDb(), subscriber.id, campaignOf(context));
  // A new subscription counts as a goal once confirmed (at once when there is no confirmation e-mail).
  if (created && pending) rememberVisit(context, `subscriber:${subscriber.id}`);
  if (created && !pending) countGoal(getDb(), 'newsletter_confirmed', { visit: visitOf(context) });
  // With a confirmation e-mail on its way the answer says nothing about whether the address
  // was known (only the contract's status codes differ).
  return json({ email: subscriber.email, alreadySubscribed: !pending && !created, pending, message }, created ? 201 : 200);
});
