import * as z from 'zod';
import { getDb } from '#server/db.ts';
import { listBookings } from '#server/booking/service.ts';
import { endpoint } from '#server/app/endpoint.ts';

const Query = z.object({ when: z.enum(['upcoming', 'past'], { error: 'when is upcoming or past' }).optional().default('upcoming') });

/** Upcoming bookings (soonest first) or past ones (latest first), with their answers. */
export const GET = endpoint({ auth: 'admin', query: Query }, ({ query }) => listBookings(getDb(), query.when));
