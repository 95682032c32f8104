import * as z from 'zod';
import { optionalCount, optionalText, optionalUrl, scheduleTime } from './common.ts';

export const EPISODE_TYPES = ['full', 'trailer', 'bonus'] as const;
export type EpisodeType = (typeof EPISODE_TYPES)[number];

/** A URL's (or site path's) path; '' for one that is no URL (its own check has said so: zod runs every check). */
const pathOf = (v: string) => (URL.canParse(v, 'http://x') ? new URL(v, 'http://x').pathname : '');

export const EpisodeInputSchema = z.object({
  title: z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(255, 'Title too long'),
  slug: z.string({ error: 'Slug is required' }).trim().min(1, 'Slug is required').max(255, 'Slug too long'),
  description: optionalText(1000, 'Description too long'),
  audioUrl: optionalUrl('Invalid audio URL'),
  duration: optionalCount('Duration', ' of seconds'),
  episodeNumber: optionalCount('Episode number'),
  guest: optionalText(255, 'Guest name too long'),
  season: optionalCount('Season'),
  episodeType: z.enum(EPISODE_TYPES, { error: 'Episode type must be full, trailer or bonus' }).default('full'),
  explicit: z.boolean({ error: 'Explicit must be true or false' }).default(false),
  imageUrl: optionalUrl('Invalid artwork URL'),
  /** Rich text, sanitised like a post's content. */
  showNotes: optionalText(100_000, 'Show notes too long'),
  transcriptUrl: optionalUrl('Invalid transcript URL').refine((v) => v === null || /\.(vtt|srt)$/i.test(pathOf(v)), 'The transcript must be a .vtt or .srt file'),
  chaptersUrl: optionalUrl('Invalid chapters URL').refine((v) => v === null || /\.json$/i.test(pathOf(v)), 'The chapters must be a .json file'),
  scheduledAt: scheduleTime,
  isPublished: z.boolean({ error: 'Published must be true or false' }).default(false),
});
export type EpisodeInput = z.infer<typeof EpisodeInputSchema>;

export const EpisodeListQuerySchema = z.object({ published: z.enum(['true', 'false']).optional() });

/** A published episode as the public pages hand it to the browser: no drafts, dates as ISO strings. */
export interface PublicEpisode {
  id: number;
  slug: string;
  episodeNumber: number | null;
  title: string;
  guest: string | null;
  description: string | null;
  audioUrl: string | null;
  duration: number | null;
  createdAt: string;
}

/** An episode as the admin API answers it. */
export interface EpisodeDto {
  id: number;
  title: string;
  slug: string;
  guid: string | null;
  description: string | null;
  audioUrl: string | null;
  /** Seconds. */
  duration: number | null;
  episodeNumber: number | null;
  guest: string | null;
  season: number | null;
  episodeType: EpisodeType;
  explicit: boolean;
  imageUrl: string | null;
  showNotes: string | null;
  transcriptUrl: string | null;
  chaptersUrl: string | null;
  isPublished: boolean;
  /** When it went public. */
  publishedAt: Date | null;
  /** When it goes public by itself (only while that is ahead). */
  scheduledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
