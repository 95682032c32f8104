import { endpoint } from '#server/app/endpoint.ts';
import { getDb } from '#server/db.ts';
import { listMail } from '#server/mail/outbox.ts';

/** The 200 newest e-mails of the outbox (without their bodies), for Admin → E-mails. */
export const GET = endpoint({ auth: 'admin' }, () => listMail(getDb()));
