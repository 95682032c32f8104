import { endpoint } from '@/server/http/endpoint';
import { getDb } from '@/server/context';
import { listMail } from '@/server/mail/outbox';

/** The 200 newest e-mails of the outbox (without their bodies), for Admin → E-mails. */
export const GET = endpoint({ auth: 'admin' }, () => listMail(getDb()));
