import * as z from 'zod';
import { endpoint } from '#server/app/endpoint.ts';
import { subscribersCsvStream } from '#server/newsletter/subscribers.ts';

const Query = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
    .optional(),
});

/** Every subscriber as a CSV file, streamed from the database; `date` (the admin's day) names the file. */
export const GET = endpoint({ auth: 'admin', query: Query }, ({ query }) => {
  const date = query.date ?? new Date().toISOString().slice(0, 10);
  return new Response(subscribersCsvStream(), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="newsletter-subscribers-${date}.csv"`, 'Cache-Control': 'no-store' },
  });
});
