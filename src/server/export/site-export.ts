// The whole site in one zip, for an owner who moves on (no lock-in): every post and episode as
// HTML with its metadata as JSON beside it, the uploaded media and the product files as they are
// stored, subscribers.csv (status, tags, source and dates, in columns the subscriber import of
// this site, Kit or Ghost reads back), orders.csv, bookings.csv and the published site document.
// It is streamed as it is written: entries are added up front but each one's content is read
// from the database or the disk only when the zip reaches it, so a large site never sits in
// memory whole.
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { asc, count, eq } from 'drizzle-orm';
import yazl from 'yazl';
import { blogPosts, newsletterSubscribers, podcastEpisodes, postTags } from '#db/schema/content.ts';
import { orders } from '#db/schema/commerce.ts';
import { bookings } from '#db/schema/booking.ts';
import type { Db } from '#server/db.ts';
import { env, privateFilesDir } from '#server/env.ts';
import { bookingsCsv } from '#server/booking/bookings-csv.ts';
import { ordersCsv } from '#server/commerce/orders-csv.ts';
import { uploadsRoot } from '#server/media/local.ts';
import { getPublishedSite } from '#server/site/document.ts';
import { exportSubscribersCsv } from './subscribers-csv.ts';

/** A stream whose content is made only when the zip reads it. */
function later(make: () => string | Buffer): Readable {
  let done = false;
  return new Readable({
    read() {
      if (done) return;
      done = true;
      try {
        this.push(make());
        this.push(null);
      } catch (err) {
        this.destroy(err as Error);
      }
    },
  });
}

/** A file's content, opened only when the zip reaches it; a file deleted meanwhile is left empty. */
function fileLater(path: string): Readable {
  const out = new Readable({ read() {} });
  let opened = false;
  out._read = () => {
    if (opened) return;
    opened = true;
    const file = createReadStream(path);
    file.on('data', (chunk) => {
      if (!out.push(chunk)) file.pause();
    });
    out._read = () => file.resume();
    file.on('end', () => out.push(null));
    file.on('error', () => out.push(null));
  };
  return out;
}

/** Every file below `root` (hidden files and folders left out), as paths relative to it. */
function filesBelow(root: string): string[] {
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile()) found.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  return found.sort();
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The zip of the whole site, as a stream of bytes. */
export function siteExportStream(db: Db, now = new Date()): ReadableStream<Uint8Array> {
  const zip = new yazl.ZipFile();
  const mtime = now;
  const text = (name: string, make: () => string | Buffer) => zip.addReadStream(later(make), name, { mtime });

  const posts = db.select({ id: blogPosts.id, slug: blogPosts.slug }).from(blogPosts).orderBy(asc(blogPosts.id)).all();
  for (const { id, slug } of posts) {
    const post = () => db.select().from(blogPosts).where(eq(blogPosts.id, id)).get();
    text(`posts/${slug}.html`, () => post()?.content ?? '');
    text(`posts/${slug}.json`, () => {
      const p = post();
      if (!p) return json(null);
      const tags = db.select({ name: postTags.name }).from(postTags).where(eq(postTags.postId, id)).all();
      const { content: _content, authorId: _author, ...meta } = p;
      return json({ ...meta, tags: tags.map((t) => t.name) });
    });
  }
  const episodes = db.select({ id: podcastEpisodes.id, slug: podcastEpisodes.slug }).from(podcastEpisodes).orderBy(asc(podcastEpisodes.id)).all();
  for (const { id, slug } of episodes) {
    const episode = () => db.select().from(podcastEpisodes).where(eq(podcastEpisodes.id, id)).get();
    text(`episodes/${slug}.html`, () => {
      const e = episode();
      return e?.showNotes ?? e?.description ?? '';
    });
    text(`episodes/${slug}.json`, () => json(episode() ?? null));
  }

  const media = filesBelow(uploadsRoot());
  for (const file of media) zip.addReadStream(fileLater(join(uploadsRoot(), file)), `media/${file}`, { mtime, compress: false });
  const productRoot = privateFilesDir(env());
  const productFiles = filesBelow(productRoot);
  for (const file of productFiles) zip.addReadStream(fileLater(join(productRoot, file)), `product-files/${file}`, { mtime, compress: false });

  zip.addReadStream(Readable.fromWeb(exportSubscribersCsv(db) as NodeReadableStream<Uint8Array>), 'subscribers.csv', { mtime });
  text('orders.csv', () => ordersCsv());
  text('bookings.csv', () => bookingsCsv(db));
  text('site.json', () => json(getPublishedSite(db)));

  const total = (table: typeof newsletterSubscribers | typeof orders | typeof bookings) => db.select({ n: count() }).from(table).get()?.n ?? 0;
  text('export.json', () =>
    json({
      exportedAt: now.toISOString(),
      site: env().SITE_URL,
      posts: posts.length,
      episodes: episodes.length,
      mediaFiles: media.length,
      productFiles: productFiles.length,
      subscribers: total(newsletterSubscribers),
      orders: total(orders),
      bookings: total(bookings),
    }),
  );
  zip.end();
  return Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array>;
}
