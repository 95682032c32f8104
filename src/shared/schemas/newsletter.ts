import * as z from 'zod';
import { BotFieldsSchema } from './common.ts';

export const SubscribeSchema = BotFieldsSchema.extend({
  email: z.string({ error: 'Valid email is required' }).trim().toLowerCase().max(255, 'Email too long').pipe(z.email('Valid email is required')),
  name: z
    .string()
    .trim()
    .max(255, 'Name too long')
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type SubscribeInput = z.infer<typeof SubscribeSchema>;

/** Active, pending (confirmation link sent), unsubscribed (by their own link), or inactive. */
export type SubscriberStatus = 'active' | 'pending' | 'unsubscribed' | 'inactive';

/** A subscriber as the admin sees it: no tokens. */
export interface SubscriberDto {
  id: number;
  email: string;
  name: string | null;
  /** The id at the e-mail service (Kit, formerly ConvertKit); null until synced. */
  convertKitId: string | null;
  isActive: boolean;
  status: SubscriberStatus;
  subscribedAt: Date;
}
