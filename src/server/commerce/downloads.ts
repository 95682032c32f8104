// What a buyer gets: the files of a product, kept in a private folder (never below the public
// uploads URL, never under a guessable name), and download grants that let a paid order fetch
// each file for a number of days and downloads. A grant's link carries `{id}.{mac}`, the mac
// being an HMAC of the grant with the server's secret, so links are unguessable and never stored.
import { createHmac, randomBytes } from 'node:crypto';
import { sameSecret } from '#server/http/signing.ts';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { downloadGrants, orders, productFiles, products } from '#db/schema/commerce.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { formatLongDate, formatPrice } from '#shared/format.ts';
import type { DeliveryDto, ProductFileDto } from '#shared/schemas/product.ts';
import { env } from '#server/env.ts';
import { getDb } from '#server/db.ts';
import { privateFilesDir } from '#server/env.ts';
import { HttpError, badRequest, notFound } from '#server/http/errors.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { freshDownloads, receipt } from './mail.ts';
import type { Settings } from '#shared/schemas/settings.ts';
import { getSettings } from '#server/site/settings.ts';
import { hasPayment } from '#server/booking/package-sessions.ts';
import { answeringRefusals, receive, tooLarge } from '#server/media/uploads.ts';
import { publishedSite } from '#server/site/current.ts';

type Tx = Pick<Db, 'insert' | 'select' | 'update'>;

export const PRODUCT_FILE_LIMIT = 500 * 1024 * 1024;

/** What a product file may be, judged from its bytes, and the extension its download gets. */
const FILE_TYPES: Record<string, string> = { 'application/pdf': 'pdf', 'application/zip': 'zip', 'application/epub+zip': 'epub', 'audio/mpeg': 'mp3', 'video/mp4': 'mp4' };
export const UNSUPPORTED_FILE = 'The file is not a PDF, ZIP, EPUB, MP3 or MP4';

const privateRoot = () => privateFilesDir(env());

const fileOnDisk = (storageKey: string) => join(privateRoot(), storageKey);

export type ProductFile = typeof productFiles.$inferSelect;
export type ProductFileView = ProductFileDto;
const view = ({ storageKey: _key, ...file }: ProductFile): ProductFileView => file;

/** A file name safe to put in a Content-Disposition header, with the extension of its type. */
function downloadName(requested: string, ext: string): string {
  const base = basename(requested.replace(/\\/g, '/'))
    // Control characters and quotes would break the Content-Disposition header.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 200);
  const name = base || 'download';
  return name.toLowerCase().endsWith(`.${ext}`) ? name : `${name}.${ext}`;
}

/** The files of a product, in the order they were added. */
export function listProductFiles(productId: number): ProductFileView[] {
  return getDb().select().from(productFiles).where(eq(productFiles.productId, productId)).orderBy(asc(productFiles.id)).all().map(view);
}

/** Receives a file for a product (the request body), checks its type from its bytes and keeps it privately. */
export function receiveProductFile(productId: number, requestedName: string, request: Request): Promise<ProductFileView> {
  return answeringRefusals(request, async () => {
    if (!getDb().select({ id: products.id }).from(products).where(eq(products.id, productId)).get()) throw notFound('Product not found');
    if (Number(request.headers.get('content-length') ?? 0) > PRODUCT_FILE_LIMIT) throw tooLarge(PRODUCT_FILE_LIMIT);
    if (!request.body) throw badRequest('The file is empty');
    const root = privateRoot();
    mkdirSync(join(root, '.tmp'), { recursive: true });
    const tmp = join(root, '.tmp', randomBytes(16).toString('hex'));
    try {
      // Past its 500 MB limit a file is never drained (answeringRefusals closes the connection).
      const size = await receive(request.body, tmp, PRODUCT_FILE_LIMIT);
      if (size === 0) throw badRequest('The file is empty');
      const { fileTypeFromFile } = await import('file-type');
      const sniffed = await fileTypeFromFile(tmp);
      const ext = sniffed ? FILE_TYPES[sniffed.mime] : undefined;
      if (!sniffed || !ext) throw new HttpError(415, UNSUPPORTED_FILE);
      const storageKey = randomBytes(16).toString('hex');
      renameSync(tmp, fileOnDisk(storageKey));
      const row = getDb()
        .insert(productFiles)
        .values({ productId, fileName: downloadName(requestedName, ext), storageKey, contentType: sniffed.mime, size })
        .returning()
        .get();
      return view(row);
    } finally {
      rmSync(tmp, { force: true });
    }
  });
}

/** Whether a product comes with files. */
export const hasFiles = (productId: number | null) =>
  productId !== null && getDb().select({ id: productFiles.id }).from(productFiles).where(eq(productFiles.productId, productId)).limit(1).get() !== undefined;

/** Removes a product's file (and with it the download links to it). */
export function deleteProductFile(productId: number, fileId: number): void {
  const row = getDb()
    .delete(productFiles)
    .where(and(eq(productFiles.id, fileId), eq(productFiles.productId, productId)))
    .returning()
    .get();
  if (!row) throw notFound('File not found');
  rmSync(fileOnDisk(row.storageKey), { force: true });
}

/** Removes the stored files of a product that is being deleted (its rows go with the product). */
export function removeStoredFiles(productId: number): () => void {
  const keys = getDb().select({ key: productFiles.storageKey }).from(productFiles).where(eq(productFiles.productId, productId)).all();
  return () => {
    for (const { key } of keys) rmSync(fileOnDisk(key), { force: true });
  };
}

// Grants -------------------------------------------------------------------------------------

type Grant = typeof downloadGrants.$inferSelect;

const mac = (grant: Pick<Grant, 'id' | 'nonce'>) => createHmac('sha256', env().BETTER_AUTH_SECRET).update(`download:${grant.id}:${grant.nonce}`).digest('base64url').slice(0, 32);
export const tokenFor = (grant: Pick<Grant, 'id' | 'nonce'>) => `${grant.id}.${mac(grant)}`;
export const downloadUrl = (grant: Pick<Grant, 'id' | 'nonce'>) => `${env().SITE_URL}/download/${tokenFor(grant)}`;

type LinkLimits = Pick<Settings, 'downloadDays' | 'downloadLimit'>;

/** Who a grant belongs to: a paid order, or a subscriber given a free download. */
type Holder = { orderId: number; subscriberId?: never } | { subscriberId: number; orderId?: never };

/** New grants for every file of a product, for an order or a subscriber, with the given days and count. */
function createGrants(tx: Tx, holder: Holder, productId: number | null, { downloadDays, downloadLimit }: LinkLimits): { fileName: string; url: string }[] {
  if (!productId) return [];
  const files = tx.select().from(productFiles).where(eq(productFiles.productId, productId)).orderBy(asc(productFiles.id)).all();
  return files.map((file) => {
    const grant = tx
      .insert(downloadGrants)
      .values({
        orderId: holder.orderId ?? null,
        subscriberId: holder.subscriberId ?? null,
        fileId: file.id,
        nonce: randomBytes(12).toString('base64url'),
        maxDownloads: downloadLimit,
        expiresAt: new Date(Date.now() + downloadDays * 86_400_000),
      })
      .returning()
      .get();
    return { fileName: file.fileName, url: downloadUrl(grant) };
  });
}

export interface FreeDownloads {
  downloads: { fileName: string; url: string }[];
  days: number;
  limit: number;
}

/**
 * Gives a subscriber links to every file of a product, whether or not it is for sale (a
 * sign-up form's free download): the same signed, counted, expiring links as a paid order's,
 * renewed from an expired link to the subscriber's address. Runs in the caller's transaction.
 */
export function grantFreeDownloads(tx: Tx, subscriberId: number, productId: number): FreeDownloads {
  const limits = getSettings(tx);
  return { downloads: createGrants(tx, { subscriberId }, productId, limits), days: limits.downloadDays, limit: limits.downloadLimit };
}

type Order = typeof orders.$inferSelect;

/**
 * A paid order gets its download grants and, when it has the buyer's address, a receipt with
 * a link per file (or what happens next, for a product without files). Runs in the
 * transaction that records the payment.
 */
export function deliverOrder(tx: Tx, order: Order): void {
  const limits = getSettings(tx);
  const downloads = createGrants(tx, { orderId: order.id }, order.productId, limits);
  if (!order.customerEmail) return;
  const mail = receipt({
    number: order.id,
    productName: order.productName,
    amount: formatPrice(order.amount),
    date: formatLongDate(order.createdAt),
    downloads,
    days: limits.downloadDays,
    limit: limits.downloadLimit,
    bookingUrl: publishedSite().bookingUrl || null,
  });
  enqueueMail(tx, { kind: 'receipt', to: order.customerEmail, ...mail });
}

/** Admin: new links and the receipt again, to the order's address. */
export function resendReceipt(orderId: number): void {
  const db = getDb();
  db.transaction((tx) => {
    const order = tx.select().from(orders).where(eq(orders.id, orderId)).get();
    if (!order) throw notFound('Order not found');
    if (order.status !== 'succeeded') throw badRequest('Only a paid order has a receipt');
    if (!order.customerEmail) throw badRequest('This order has no e-mail address');
    deliverOrder(tx, order);
  });
}

/** Ends every download link of an order, or of several (it was refunded; a package's payment was). */
export function revokeGrants(tx: Tx, orderIds: number | number[]): void {
  const ids = Array.isArray(orderIds) ? orderIds : [orderIds];
  if (ids.length === 0) return;
  tx.update(downloadGrants)
    .set({ revokedAt: new Date() })
    .where(and(inArray(downloadGrants.orderId, ids), isNull(downloadGrants.revokedAt)))
    .run();
}

/** paused: the order's payment (or another of its package's) is disputed; it works again if the dispute is won. */
export type GrantState = 'ok' | 'expired' | 'used-up' | 'revoked' | 'paused';

export interface FoundGrant {
  grant: Grant;
  file: ProductFile;
  /** The paid order; null for a subscriber's free download. */
  order: Order | null;
  /** Where fresh links go: the order's address, or the subscriber's. */
  email: string | null;
  /** What the links are for: the order's product name, or the free download's product. */
  productName: string;
  /** One key per order or subscriber, for limits on fresh links. */
  holderKey: string;
  state: GrantState;
}

/** The grant a link names, or null when the token is not one of ours. */
export function findGrant(token: string, now = Date.now()): FoundGrant | null {
  const m = /^([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m) return null;
  const row = getDb()
    .select({ grant: downloadGrants, file: productFiles, order: orders, subscriberEmail: newsletterSubscribers.email, productName: products.name })
    .from(downloadGrants)
    .innerJoin(productFiles, eq(productFiles.id, downloadGrants.fileId))
    .innerJoin(products, eq(products.id, productFiles.productId))
    .leftJoin(orders, eq(orders.id, downloadGrants.orderId))
    .leftJoin(newsletterSubscribers, eq(newsletterSubscribers.id, downloadGrants.subscriberId))
    .where(eq(downloadGrants.id, Number(m[1])))
    .get();
  if (!row || (!row.order && row.subscriberEmail === null)) return null;
  if (!sameSecret(mac(row.grant), m[2]!)) return null;
  const { order } = row;
  const paused = order !== null && (order.status === 'disputed' || (order.status === 'succeeded' && order.clientPackageId !== null && hasPayment(getDb(), order.clientPackageId, 'disputed')));
  const state: GrantState =
    row.grant.revokedAt || (order !== null && order.status !== 'succeeded' && !paused)
      ? 'revoked'
      : paused
        ? 'paused'
        : row.grant.expiresAt.getTime() <= now
          ? 'expired'
          : row.grant.downloads >= row.grant.maxDownloads
            ? 'used-up'
            : 'ok';
  const holder = order
    ? { email: order.customerEmail, productName: order.productName, holderKey: `order-${order.id}` }
    : { email: row.subscriberEmail, productName: row.productName, holderKey: `subscriber-${row.grant.subscriberId}` };
  return { grant: row.grant, file: row.file, order, ...holder, state };
}

/** The file of a valid grant on disk. */
export const grantFile = (found: FoundGrant) => fileOnDisk(found.file.storageKey);

/**
 * Takes one of a grant's downloads, atomically: false when none is left (or the link has ended
 * meanwhile), so parallel requests can never take more than the limit between them.
 */
export function reserveDownload(grantId: number, now = new Date()): boolean {
  const taken =
    getDb()
      .update(downloadGrants)
      .set({ downloads: sql`${downloadGrants.downloads} + 1`, lastDownloadAt: now })
      .where(and(eq(downloadGrants.id, grantId), lt(downloadGrants.downloads, downloadGrants.maxDownloads), isNull(downloadGrants.revokedAt), gt(downloadGrants.expiresAt, now)))
      .run().changes > 0;
  if (taken) resumes.delete(grantId);
  return taken;
}

/** How long after a link's last download it may still resume it (a large file on a slow line). */
export const RESUME_MS = 24 * 60 * 60_000;
/** Resumes answered per download taken: a dropped line a few times, not a way round the limit. */
export const RESUMES_PER_DOWNLOAD = 20;
/** Resumes answered per grant since its last download (in memory: a restart allows a few more). */
const resumes = new Map<number, number>();

/**
 * Whether a ranged request that does not start at byte 0 may be answered without taking a
 * download, counting it if so: it resumes one, so the link must have been used, not have ended,
 * have been used within a day, and not have resumed its last download too often already.
 */
export function resumeDownload(found: FoundGrant, now = Date.now()): boolean {
  const { id, downloads, lastDownloadAt } = found.grant;
  if (downloads === 0 || (found.state !== 'ok' && found.state !== 'used-up')) return false;
  if (lastDownloadAt === null || now - lastDownloadAt.getTime() >= RESUME_MS) return false;
  const answered = resumes.get(id) ?? 0;
  if (answered >= RESUMES_PER_DOWNLOAD) return false;
  if (resumes.size >= 10_000 && !resumes.has(id)) resumes.clear();
  resumes.set(id, answered + 1);
  return true;
}

/** At most one fresh set of links per order (or subscriber) in this time, however often it is asked for. */
const FRESH_LINKS_EVERY_MS = 10 * 60_000;
const freshLinksSent = new Map<string, number>();

/**
 * From an expired or used-up link: new links for the order, e-mailed to the order's address
 * (never shown on the page, so a forwarded link does not hand out new ones). Answers whether
 * there is an address to send them to.
 */
export function requestFreshLinks(found: FoundGrant): 'sent' | 'no-email' | 'revoked' | 'paused' {
  if (found.state === 'revoked' || found.state === 'paused') return found.state;
  const { email, order } = found;
  if (!email) return 'no-email';
  const last = freshLinksSent.get(found.holderKey);
  if (last !== undefined && Date.now() - last < FRESH_LINKS_EVERY_MS) return 'sent';
  freshLinksSent.set(found.holderKey, Date.now());
  if (freshLinksSent.size > 10_000) freshLinksSent.delete(freshLinksSent.keys().next().value!);
  getDb().transaction((tx) => {
    const limits = getSettings(tx);
    const downloads = order ? createGrants(tx, { orderId: order.id }, order.productId, limits) : createGrants(tx, { subscriberId: found.grant.subscriberId! }, found.file.productId, limits);
    if (downloads.length === 0) return;
    enqueueMail(tx, {
      kind: 'fresh-downloads',
      to: email,
      ...freshDownloads({ number: order?.id ?? null, productName: found.productName, downloads, days: limits.downloadDays, limit: limits.downloadLimit }),
    });
  });
  return 'sent';
}

export interface OrderDownload {
  fileName: string;
  size: number;
  url: string;
}

/** The newest working link per file of a paid order (the success page's buttons). */
export function downloadsForPayment(paymentIntentId: string): OrderDownload[] {
  const rows = getDb()
    .select({ grant: downloadGrants, file: productFiles })
    .from(downloadGrants)
    .innerJoin(orders, eq(orders.id, downloadGrants.orderId))
    .innerJoin(productFiles, eq(productFiles.id, downloadGrants.fileId))
    .where(and(eq(orders.paymentIntentId, paymentIntentId), eq(orders.status, 'succeeded'), isNull(downloadGrants.revokedAt)))
    .orderBy(desc(downloadGrants.id))
    .all();
  const byFile = new Map<number, OrderDownload>();
  for (const { grant, file } of rows) {
    if (byFile.has(file.id) || grant.expiresAt.getTime() <= Date.now() || grant.downloads >= grant.maxDownloads) continue;
    byFile.set(file.id, { fileName: file.fileName, size: file.size, url: `/download/${tokenFor(grant)}` });
  }
  return [...byFile.values()].reverse();
}

/** Per order: the links it was given, with their download counts (Admin → Orders). */
export function deliveriesByOrder(orderIds: number[]): Map<number, DeliveryDto[]> {
  const out = new Map<number, DeliveryDto[]>();
  if (orderIds.length === 0) return out;
  // Past a few hundred orders, reading every grant beats a long IN list.
  const rows = getDb()
    .select({ grant: downloadGrants, fileName: productFiles.fileName })
    .from(downloadGrants)
    .innerJoin(productFiles, eq(productFiles.id, downloadGrants.fileId))
    .where(orderIds.length <= 500 ? inArray(downloadGrants.orderId, orderIds) : isNotNull(downloadGrants.orderId))
    .orderBy(asc(downloadGrants.id))
    .all();
  for (const { grant, fileName } of rows) {
    if (grant.orderId === null) continue;
    const list = out.get(grant.orderId) ?? [];
    list.push({ fileName, downloads: grant.downloads, maxDownloads: grant.maxDownloads, expiresAt: grant.expiresAt, revoked: grant.revokedAt !== null });
    out.set(grant.orderId, list);
  }
  return out;
}
