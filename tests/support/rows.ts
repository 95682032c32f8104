// Reads of the server's SQLite file that several test files make.
import { eq } from 'drizzle-orm';
import { podcastEpisodes } from '#db/schema/content.ts';
import { outbox } from '#db/schema/mail.ts';
import type { TestServer } from './server.ts';

/** The published episodes that have audio: the ones the podcast feed lists. */
export const publishedEpisodesWithAudio = (server: TestServer) =>
  server.db
    .select()
    .from(podcastEpisodes)
    .where(eq(podcastEpisodes.isPublished, true))
    .all()
    .filter((e) => e.audioUrl);

/** The messages in the outbox (queued, sent or failed) that `keep` selects. */
export const outboxWhere = (server: TestServer, keep: (m: typeof outbox.$inferSelect) => boolean) => server.db.select().from(outbox).all().filter(keep);

/** The ids of a listed answer, in its order. */
export const ids = (list: { id: number }[]) => list.map((e) => e.id);
