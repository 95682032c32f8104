import { getDb } from '#server/db.ts';
import { book } from '#server/booking/service.ts';
import { countGoal, visitOf } from '#server/analytics/goals.ts';
import { ownPackage } from '#server/commerce/billing/clients.ts';
import { requireUser } from '#server/accounts/session.ts';
import { screenBots } from '#server/http/bots.ts';
import { badRequest } from '#server/http/errors.ts';
import { endpoint, json } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { BookingRequestSchema } from '#shared/schemas/booking.ts';

/**
 * Books a slot (201 {id, start, end, manageUrl}); 409 when it was taken meanwhile, 400 when the
 * start is not an offered slot. A form post (no JavaScript) goes on to the booking's own page.
 * The same form sent again (its formKey) gets the same answer, and books nothing more.
 */
export const POST = endpoint(
  {
    auth: 'public',
    changesContent: false,
    body: BookingRequestSchema,
    form: { success: () => 'You are booked.', next: (a) => `${new URL(String(a.manageUrl)).pathname}${new URL(String(a.manageUrl)).search}&booked=1` },
  },
  ({ body, context }) => {
    hit(LIMITS.booking, clientKey(context));
    if (screenBots(body) === 'bot') throw badRequest('Please check the form and send it again.');
    // A session of a client's package: theirs only (anyone else's, or none, is 404).
    if (body.clientPackage !== undefined) ownPackage(getDb(), requireUser(context.locals).id, body.clientPackage);
    const { repeated, ...booked } = book(getDb(), body);
    // The same form sent again is answered as the first time and counted once.
    if (!repeated) countGoal(getDb(), 'booking', { visit: visitOf(context) });
    return json(booked, 201);
  },
);
