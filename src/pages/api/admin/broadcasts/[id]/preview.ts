import { getDb } from '#server/db.ts';
import { getBroadcast } from '#server/broadcasts/service.ts';
import { issueBody, issueMessage } from '#server/broadcasts/message.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

/** The issue as a subscriber's e-mail shows it (an example subscriber's unsubscribe link), as an HTML page. */
export const GET = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => {
  const issue = getBroadcast(getDb(), params.id);
  // Looking at it counts no open.
  const message = issueMessage(issue, issueBody({ ...issue, track: false }), 'example-subscriber-token');
  // Sandboxed: the page is the e-mail's own HTML, which runs nothing on this origin.
  return new Response(message.html, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; sandbox allow-popups",
    },
  });
});
