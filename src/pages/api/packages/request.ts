import { requestPackage } from '#server/commerce/billing/requests.ts';
import { screenBots } from '#server/http/bots.ts';
import { badRequest } from '#server/http/errors.ts';
import { endpoint } from '#server/app/endpoint.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { PackageRequestSchema } from '#shared/schemas/billing.ts';

/** A request for a package arranged by request: e-mailed to the owner (works as a plain form post too). */
export const POST = endpoint(
  { auth: 'public', changesContent: false, body: PackageRequestSchema, form: { success: () => 'Thank you: your request is on its way. You will hear back within two working days.' } },
  ({ body, context }) => {
    hit(LIMITS.packageRequest, clientKey(context));
    if (screenBots(body) === 'bot') throw badRequest('Please check the form and send it again.');
    requestPackage(body);
    return { sent: true };
  },
);
