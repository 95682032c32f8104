// The subscribers of the whole-site export: one row per subscriber with what another tool needs
// to take them on with their consent (email, name, status, when they subscribed, how they came,
// their tags), in the columns the subscriber import of this site, Kit and Ghost read. Streamed in
// batches by id, so the list never sits in memory whole.
import { asc, eq, gt, inArray } from 'drizzle-orm';
import Papa from 'papaparse';
import { subscriberTags, tags } from '#db/schema/audience.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import type { Db } from '#server/db.ts';
import { subscriberStatus } from '#server/newsletter/subscribers.ts';

const BATCH = 1_000;
const COLUMNS = ['email', 'name', 'status', 'subscribed_at', 'source', 'tags'];

/** Tag names as Mailchimp writes them: each in double quotes, separated by commas. */
const tagCell = (names: string[]) => names.map((n) => `"${n.replaceAll('"', "'")}"`).join(',');

export function exportSubscribersCsv(db: Db): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`${Papa.unparse([COLUMNS], { newline: '\r\n' })}\r\n`));
        return;
      }
      const t = newsletterSubscribers;
      const rows = db.select().from(t).where(gt(t.id, after)).orderBy(asc(t.id)).limit(BATCH).all();
      if (rows.length === 0) return controller.close();
      after = rows.at(-1)!.id;
      const tagged = new Map<number, string[]>();
      const ids = rows.map((r) => r.id);
      for (const { id, name } of db
        .select({ id: subscriberTags.subscriberId, name: tags.name })
        .from(subscriberTags)
        .innerJoin(tags, eq(tags.id, subscriberTags.tagId))
        .where(inArray(subscriberTags.subscriberId, ids))
        .all())
        tagged.set(id, [...(tagged.get(id) ?? []), name]);
      const data = rows.map((s) => [s.email, s.name ?? '', subscriberStatus(s), s.subscribedAt.toISOString(), s.source ?? '', tagCell(tagged.get(s.id) ?? [])]);
      controller.enqueue(encoder.encode(`${Papa.unparse(data, { escapeFormulae: true, newline: '\r\n' })}\r\n`));
    },
  });
}
