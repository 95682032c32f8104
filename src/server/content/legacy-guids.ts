// Feed GUIDs of rows made before GUIDs were stored. Until then the blog feed used the post's
// URL and the podcast feed '{host}:podcast-episode:{id}', both built from SITE_URL at request
// time. Such rows are given exactly that value once, with the SITE_URL in force when the
// upgraded server first opens the database, so no reader or podcast app sees an item as new;
// from then on the stored value is used and a domain move changes nothing. New rows get a UUID.
import { sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { blogPosts, podcastEpisodes } from '#db/schema/content.ts';

/** The GUID a post was published under before GUIDs were stored. */
export const legacyPostGuid = (siteUrl: string, slug: string) => `${siteUrl}/blog/${slug}`;

/** The GUID an episode was published under before GUIDs were stored. */
export const legacyEpisodeGuid = (siteUrl: string, id: number | '') => `${new URL(siteUrl).host}:podcast-episode:${id}`;

/** Stores the URL-based GUID each row without one was published under. */
export function assignLegacyGuids(db: Db, siteUrl: string): void {
  db.transaction((tx) => {
    tx.update(blogPosts)
      .set({ guid: sql`${legacyPostGuid(siteUrl, '')} || ${blogPosts.slug}` })
      .where(sql`${blogPosts.guid} IS NULL`)
      .run();
    tx.update(podcastEpisodes)
      .set({ guid: sql`${legacyEpisodeGuid(siteUrl, '')} || ${podcastEpisodes.id}` })
      .where(sql`${podcastEpisodes.guid} IS NULL`)
      .run();
  });
}
