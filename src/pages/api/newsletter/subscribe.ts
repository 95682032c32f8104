import { endpoint, json } from '@/server/http/endpoint';
import { subscribe } from '@/server/services/newsletter';
import { SubscribeSchema } from '@/shared/schemas/newsletter';

export const POST = endpoint({ auth: 'public', body: SubscribeSchema }, ({ body }) => {
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
