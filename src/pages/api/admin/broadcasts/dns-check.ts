import { checkSendingDomain } from '#server/broadcasts/dns-check.ts';
import { endpoint } from '#server/app/endpoint.ts';

/** The From domain's DNS as bulk senders need it: SPF, the DKIM key, DMARC; `?fresh=1` asks again now. */
export const GET = endpoint({ auth: 'admin' }, ({ request }) => checkSendingDomain(new URL(request.url).searchParams.get('fresh') === '1'));
