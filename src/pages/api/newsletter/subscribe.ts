import { screenBots } from '@/server/http/bots';
import { endpoint, json } from '@/server/http/endpoint';
import { LIMITS, clientKey, hit } from '@/server/http/rate-limit';
import { subscribe } from '@/server/services/newsletter';
import { SubscribeSchema } from '@/shared/schemas/newsletter';

export const POST = endpoint({ auth: 'public', changesContent: false, body: SubscribeSchema, form: { success: (a) => String(a.message) } }, ({ body, context }) => {
  hit(LIMITS.subscribe, clientKey(context));
  if (screenBots(body) === 'bot') return json({ email: body.email, alreadySubscribed: false, message: 'Thanks for subscribing!' }, 201);
  const { subscriber, created } = subscribe(body);
  return json(
    {
      email: subscriber.email,
      alreadySubscribed: !created,
      message: created ? 'Thanks for subscribing!' : 'You are already subscribed.',
    },
    created ? 201 : 200,
  );
});
