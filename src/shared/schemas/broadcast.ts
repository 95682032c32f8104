// A newsletter issue: what the owner writes, and what the admin shows of its sending.
import * as z from 'zod';

/** What every e-mail the owner writes has (an issue, a sequence's step): subject, preheader and body. */
export const EmailContentShape = {
  subject: z.string({ error: 'Subject is required' }).trim().min(1, 'Subject is required').max(200, 'Subject must be at most 200 characters'),
  preheader: z
    .string({ error: 'Preheader must be text' })
    .trim()
    .max(200, 'Preheader must be at most 200 characters')
    .nullish()
    .transform((v) => v || null),
  content: z.string({ error: 'Content is required' }).trim().min(1, 'Content is required').max(500_000, 'Content is too long'),
};

export const BroadcastInputSchema = z.object({
  ...EmailContentShape,
  postId: z.number().int().positive().nullish(),
  /** Kept out of the public archive, its feed and the sitemap. */
  subscribersOnly: z.boolean().optional().default(false),
  /** Count opens and clicks: anonymous, approximate totals. Off unless the owner turns it on. */
  track: z.boolean().optional().default(false),
  /** Sent to the active subscribers matching this segment when sending starts; absent or null = every active subscriber. */
  segmentId: z
    .number({ error: 'segmentId must be a segment id' })
    .int('segmentId must be a segment id')
    .positive('segmentId must be a segment id')
    .nullish()
    .transform((v) => v ?? null),
});
export type BroadcastInput = z.infer<typeof BroadcastInputSchema>;

export const BroadcastTestSchema = z.object({
  email: z.string({ error: 'Valid email is required' }).trim().toLowerCase().max(254, 'Valid email is required').pipe(z.email('Valid email is required')),
});

/** Starting a send; `confirmDns` is the second confirmation a large send needs when the From domain's DNS check failed. */
/** `GET /api/admin/broadcasts/audience?segmentId=`: the count for a segment, or for everyone without one. */
export const AudienceQuerySchema = z.object({
  segmentId: z.coerce.number({ error: 'segmentId must be a segment id' }).int('segmentId must be a segment id').positive('segmentId must be a segment id').optional(),
});

export const BroadcastSendSchema = z.object({ confirmDns: z.boolean().optional().default(false) });

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
  /** Changes with every write; sent back as `If-Match: "broadcast-N"`, a save or send over an unseen change is refused (412). */
  version: number;
  total: number;
  pending: number;
  sent: number;
  failed: number;
  bounced: number;
  skipped: number;
  /** Messages that were being handed to SMTP when the server stopped: they may have gone out twice. */
  possiblyDuplicated: number;
  /** Recipients who unsubscribed after sending started. */
  unsubscribedSince: number;
  /** Seconds until the pending messages are out at the configured rate and under the daily limit; null unless sending. */
  etaSeconds: number | null;
  /** Sending, and the daily limit (BROADCAST_DAILY_LIMIT) lets nothing more go until messages of the last 24 hours stop counting. */
  waitingForDailyLimit: boolean;
  /** BROADCAST_DAILY_LIMIT: at most this many messages in any 24 hours, or null for no limit. */
  dailyLimit: number | null;
  subscribersOnly: boolean;
  track: boolean;
  /** The segment it goes to, or null for every active subscriber. */
  segmentId: number | null;
  /** Approximate and anonymous; 0 unless tracking is on. */
  opens: number;
  clicks: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface DnsCheckItem {
  name: 'SPF' | 'DKIM' | 'DMARC';
  ok: boolean;
  /** What was found, or plainly what is missing and where it goes. */
  message: string;
  record: string | null;
}

export interface DnsCheck {
  domain: string;
  ok: boolean;
  checks: DnsCheckItem[];
}
