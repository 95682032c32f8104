// The one sign-up route of every newsletter form: the site's own, a sign-up form's page
// (/f/{slug}, `form`), and the snippet an owner pastes on another site, which posts here from
// that site's pages (so the Origin is not checked: a sign-up acts on no session; the bot
// checks, the rate limit and the confirmation e-mail guard it).
import { campaignOf, countGoal, rememberVisit, visitOf } from '#server/analytics/goals.ts';
import { tagCampaign } from '#server/newsletter/activity.ts';
import { getDb } from '#server/db.ts';
import { screenBots } from '#server/http/bots.ts';
import { endpoint, json } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { formSignup, getFormBySlug } from '#server/forms/forms.ts';
import { genericSignup } from '#server/newsletter/consent.ts';
import { CHECK_INBOX, confirmsFirst, subscribe } from '#server/newsletter/subscribers.ts';
import { SubscribeSchema } from '#shared/schemas/newsletter.ts';

/** The page a sign-up came from when the form did not say: the Referer (another site's address as its browser gives it). */
function refererOf(request: Request): string | null {
  const referer = request.headers.get('referer');
  if (!referer || !URL.canParse(referer)) return null;
  const url = new URL(referer);
  return (url.origin === new URL(request.url).origin ? url.pathname : url.origin + url.pathname).slice(0, 500);
}

export const POST = endpoint(
  { auth: 'public', crossSite: true, changesContent: false, body: SubscribeSchema, form: { success: (a) => [a.thankYou, a.message].filter(Boolean).join(' ') } },
  ({ body, context, request }) => {
    hit(LIMITS.subscribe, clientKey(context));
    const page = body.page ?? refererOf(request);
    const signup = body.form ? formSignup(body.form, page) : genericSignup(page);
    const thankYou = body.form ? (getFormBySlug(body.form)?.thankYou ?? null) : null;
    // A robot is answered like a person, and nothing is stored or sent.
    if (screenBots(body) === 'bot') {
      const pending = confirmsFirst();
      return json({ email: body.email, alreadySubscribed: false, pending, message: pending ? CHECK_INBOX : 'Thanks for subscribing!', thankYou }, 201);
    }
    const { subscriber, created, pending, message } = subscribe(body, signup);
    // A new sign-up from a campaign's page carries its name: the person did come from it.
    if (created) tagCampaign(getDb(), subscriber.id, campaignOf(context));
    // A new subscription counts as a goal once confirmed (at once when there is no confirmation e-mail).
    if (created && pending) rememberVisit(context, `subscriber:${subscriber.id}`);
    if (created && !pending) countGoal(getDb(), 'newsletter_confirmed', { visit: visitOf(context) });
    // With a confirmation e-mail on its way the answer says nothing about whether the address
    // was known (only the contract's status codes differ).
    return json({ email: subscriber.email, alreadySubscribed: !pending && !created, pending, message, thankYou }, created ? 201 : 200);
  },
);
