// Responsive images: every image uploaded to the site's own storage gets WebP and AVIF copies
// at a few widths beside it, made in the background (an upload never waits for them, and a
// failure leaves the original in use), so pages can offer phones a small file. Images held
// elsewhere (UploadThing, another host) are used as they are.
import { and, eq, inArray, lt } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import type { Db } from '#db/client.ts';
import { imageVariants } from '#db/schema/storage.ts';
import { nowMs } from '#db/schema/now.ts';
import { resolveUpload } from './local.ts';

/** The widths made (none wider than the original; a smaller original gets one copy at its own width). */
export const VARIANT_WIDTHS = [480, 960, 1600];
const FORMATS = ['avif', 'webp'] as const;
const MAX_ATTEMPTS = 3;
const IMAGE_EXT = /\.(jpe?g|png|webp|avif|gif)$/i;

export interface ImageInfo {
  width: number;
  height: number;
  /** 'type' → srcset, AVIF first. */
  sources: { type: string; srcset: string }[];
}

/** Whether a URL is an original the site can make copies of. */
export const isLocalImage = (url: string | null | undefined): url is string => Boolean(url?.startsWith('/uploads/') && IMAGE_EXT.test(url) && !/-\d{2,4}\.[a-z]+$/.test(url));

const variantUrl = (url: string, width: number, format: string) => url.replace(/\.[a-z0-9]+$/i, `-${width}.${format}`);

/** Asks for copies of an image (once; a later call for the same URL does nothing). */
export function queueImage(db: Db, url: string): void {
  if (isLocalImage(url)) db.insert(imageVariants).values({ url }).onConflictDoNothing().run();
}

/** Makes the copies of one original; answers its size and the widths made. */
export async function makeVariants(url: string): Promise<{ width: number; height: number; widths: number[] }> {
  const file = resolveUpload(url.slice('/uploads/'.length));
  if (!file || !existsSync(file)) throw new Error('the original is missing');
  // Loaded on first use: libvips costs the server memory only once there are images to make.
  const { default: sharp } = await import('sharp');
  const meta = await sharp(file).rotate().metadata();
  // Dimensions as shown: EXIF orientations 5 to 8 swap them.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = (turned ? meta.height : meta.width) ?? 0;
  const height = (turned ? meta.width : meta.height) ?? 0;
  if (!width || !height) throw new Error('not a readable image');
  const widths = VARIANT_WIDTHS.filter((w) => w < width);
  if (widths.length === 0 || width <= VARIANT_WIDTHS.at(-1)!) widths.push(Math.min(width, VARIANT_WIDTHS.at(-1)!));
  const unique = [...new Set(widths)].sort((a, b) => a - b);
  for (const w of unique) {
    for (const format of FORMATS) {
      const out = resolveUpload(variantUrl(url, w, format).slice('/uploads/'.length));
      if (!out) throw new Error('no place for the copy');
      const pipeline = sharp(file).rotate().resize({ width: w, withoutEnlargement: true });
      await (format === 'avif' ? pipeline.avif({ quality: 50, effort: 3 }) : pipeline.webp({ quality: 72 })).toFile(out);
    }
  }
  return { width, height, widths: unique };
}

/**
 * Makes the copies of the next pending image; answers whether there was one. A failure is
 * tried again later, MAX_ATTEMPTS times in all, then left as 'failed' (pages keep the original).
 */
export async function processNextImage(db: Db): Promise<boolean> {
  const next = db
    .select()
    .from(imageVariants)
    .where(and(eq(imageVariants.status, 'pending'), lt(imageVariants.attempts, MAX_ATTEMPTS)))
    .limit(1)
    .get();
  if (!next) return false;
  try {
    const made = await makeVariants(next.url);
    db.update(imageVariants)
      .set({ ...made, status: 'done', error: null, updatedAt: nowMs })
      .where(eq(imageVariants.url, next.url))
      .run();
  } catch (err) {
    const attempts = next.attempts + 1;
    db.update(imageVariants)
      .set({ attempts, status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending', error: err instanceof Error ? err.message : String(err), updatedAt: nowMs })
      .where(eq(imageVariants.url, next.url))
      .run();
  }
  return true;
}

/**
 * What a page needs to offer the copies of these images: size and srcsets for each one that
 * has them. An image of ours with no row yet (uploaded before copies were made) is queued.
 */
export function imageInfo(db: Db, urls: (string | null | undefined)[]): Map<string, ImageInfo> {
  const local = [...new Set(urls.filter(isLocalImage))];
  const found = new Map<string, ImageInfo>();
  if (local.length === 0) return found;
  const rows = db.select().from(imageVariants).where(inArray(imageVariants.url, local)).all();
  for (const url of local) if (!rows.some((r) => r.url === url)) queueImage(db, url);
  for (const r of rows) {
    if (r.status !== 'done' || !r.width || !r.height || !r.widths?.length) continue;
    const sources = FORMATS.map((format) => ({ type: `image/${format}`, srcset: r.widths!.map((w) => `${variantUrl(r.url, w, format)} ${w}w`).join(', ') }));
    found.set(r.url, { width: r.width, height: r.height, sources });
  }
  return found;
}

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The `<source>` elements of an image's copies, AVIF first. */
const sourceTags = (info: ImageInfo, sizes: string) => info.sources.map((s) => `<source type="${s.type}" srcset="${esc(s.srcset)}" sizes="${esc(sizes)}">`).join('');

/** `<picture>` markup for one image: the copies as sources, the original as the fallback. */
export function pictureHtml(src: string, info: ImageInfo | undefined, attrs: { alt: string; sizes: string; className?: string; eager?: boolean }): string {
  const loading = attrs.eager ? 'fetchpriority="high"' : 'loading="lazy"';
  const cls = attrs.className ? ` class="${esc(attrs.className)}"` : '';
  const size = info ? ` width="${info.width}" height="${info.height}"` : '';
  const img = `<img src="${esc(src)}" alt="${esc(attrs.alt)}"${size}${cls} ${loading} decoding="async">`;
  return info ? `<picture>${sourceTags(info, attrs.sizes)}${img}</picture>` : img;
}

/** A post body with each of our images offered as copies (images from elsewhere stay as they are). */
export function responsiveBody(db: Db, html: string, sizes: string): string {
  const srcs = [...html.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
  const info = imageInfo(db, srcs);
  if (info.size === 0) return html;
  return html.replace(/<img\b([^>]*)>/g, (tag: string, rest: string) => {
    const src = /\bsrc="([^"]+)"/.exec(rest)?.[1];
    const one = src ? info.get(src) : undefined;
    if (!src || !one) return tag;
    const withSize = /\bwidth=/.test(rest) ? tag : tag.replace(/^<img\b/, `<img width="${one.width}" height="${one.height}"`);
    return `<picture>${sourceTags(one, sizes)}${withSize}</picture>`;
  });
}

/** Post cards with the WebP copies of their featured images, for `srcset`. */
export function withCardImages<T extends { featuredImage: string | null }>(db: Db, cards: T[]): (T & { featuredSrcset?: string })[] {
  const info = imageInfo(
    db,
    cards.map((c) => c.featuredImage),
  );
  return cards.map((c) => {
    const webp = c.featuredImage ? info.get(c.featuredImage)?.sources.find((s) => s.type === 'image/webp') : undefined;
    return webp ? { ...c, featuredSrcset: webp.srcset } : c;
  });
}
