// Privacy requests: a person asks for a copy of what the site holds about their address, or for
// its erasure; the owner lists the requests and acts for a person who asked another way.
import * as z from 'zod';
import { BotFieldsSchema } from './common.ts';

export const PRIVACY_KINDS = ['access', 'erasure'] as const;
export type PrivacyKind = (typeof PRIVACY_KINDS)[number];

const EmailSchema = z.string({ error: 'Valid email is required' }).trim().toLowerCase().max(255, 'Email too long').pipe(z.email('Valid email is required'));

/** The public form: an address and what the person wants. */
export const PrivacyRequestSchema = BotFieldsSchema.extend({ email: EmailSchema, kind: z.enum(PRIVACY_KINDS, { error: 'Choose a copy of your data or its erasure' }) });
export type PrivacyRequestInput = z.infer<typeof PrivacyRequestSchema>;

/** What the person is told, whether or not the address is known here. */
export const PRIVACY_REQUEST_SENT = 'Thank you. If we hold data about this address, an e-mail with a link (valid for 24 hours) is on its way to it.';

/** The owner's own export or erasure of one address. */
export const PrivacyAddressSchema = z.object({ email: EmailSchema });
export type PrivacyAddressInput = z.infer<typeof PrivacyAddressSchema>;

/** A request as the owner sees it: no address (only its hash is kept). */
export interface PrivacyRequestDto {
  id: number;
  kind: PrivacyKind;
  /** sent: the link is out, unused; expired: unused after 24 hours; done: downloaded or erased. */
  state: 'sent' | 'expired' | 'done';
  via: 'form' | 'owner';
  createdAt: Date;
  doneAt: Date | null;
  /** The answer is due within 30 days of the request. */
  dueAt: Date;
}

/** What an erasure did, in counts (the owner's answer and the person's page). */
export interface ErasureDto {
  id: number;
  status: 'done';
  subscriber: number;
  account: number;
  /** An admin's account is never erased this way: it is kept (the owner removes staff by hand). */
  accountKept: number;
  comments: number;
  bookingsCancelled: number;
  orders: number;
}
