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
