// A newsletter issue: what the owner writes, and what the admin shows of its sending.
import * as z from 'zod';

export const BroadcastInputSchema = z.object({
  subject: z.string({ error: 'Subject is required' }).trim().min(1, 'Subject is required').max(200, 'Subject must be at most 200 characters'),
  preheader: z
    .string({ error: 'Preheader must be text' })
    .trim()
    .max(200, 'Preheader must be at most 200 characters')
    .nullish()
    .transform((v) => v || null),
  content: z.string({ error: 'Content is required' }).trim().min(1, 'Content is required').max(500_000, 'Content is too long'),
  postId: z.number().int().positive().nullish(),
});
export type BroadcastInput = z.infer<typeof BroadcastInputSchema>;

export const BroadcastTestSchema = z.object({
  email: z.string({ error: 'Valid email is required' }).trim().toLowerCase().max(254, 'Valid email is required').pipe(z.email('Valid email is required')),
});

export type BroadcastStatus = 'draft' | 'sending' | 'paused' | 'sent' | 'cancelled';

export interface BroadcastDto {
  id: number;
  subject: string;
  preheader: string | null;
  content: string;
  postId: number | null;
  slug: string;
  status: BroadcastStatus;
  pauseReason: string | null;
  total: number;
  pending: number;
  sent: number;
  failed: number;
  bounced: number;
  skipped: number;
  /** Messages that were being handed to SMTP when the server stopped: they may have gone out twice. */
  possiblyDuplicated: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}
