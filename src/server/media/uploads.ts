// Uploads: an admin asks for a single-use, expiring upload URL; the browser PUTs the file
// there; the server checks the declared type, the size and the bytes themselves, then
// stores it (locally, or on UploadThing when configured) and answers its public URL (and,
// for audio, its length in seconds).
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { storedFiles, uploadTokens } from '#db/schema/storage.ts';
import { env } from '#server/env.ts';
import { getDb } from '#server/db.ts';
import { HttpError, forbidden, notFound } from '#server/http/errors.ts';
import { storeLocal, tempPath } from './local.ts';
import { queueImage } from './images.ts';
import { ALLOWED, LIMITS, declaredKind, sniffText, type UploadKind } from './upload-policy.ts';
import { storeOnUploadThing } from './uploadthing.ts';
// file-type and music-metadata are imported where a file is checked, not here: every server
// process loads this module at start-up, and they need not be in memory before an upload.

export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A fresh upload URL for this admin, valid once for 15 minutes. */
export function createUploadSlot(userId: string): { uploadURL: string; expiresAt: Date } {
  const secret = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + UPLOAD_URL_TTL_MS);
  const db = getDb();
  db.delete(uploadTokens)
    .where(lt(uploadTokens.expiresAt, new Date(Date.now() - 24 * 3600 * 1000)))
    .run();
  db.insert(uploadTokens)
    .values({ id: hash(secret), createdBy: userId, expiresAt })
    .run();
  return { uploadURL: `${env().SITE_URL}/api/uploads/${secret}`, expiresAt };
}

/** Marks the slot used; throws unless it exists, is unexpired and was never used. Answers its admin. */
function claim(secret: string): string | null {
  const db = getDb();
  const id = hash(secret);
  const claimed = db
    .update(uploadTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(uploadTokens.id, id), isNull(uploadTokens.usedAt), gt(uploadTokens.expiresAt, new Date())))
    .returning({ createdBy: uploadTokens.createdBy })
    .get();
  if (claimed) return claimed.createdBy;
  const row = db.select().from(uploadTokens).where(eq(uploadTokens.id, id)).get();
  if (!row) throw notFound('Upload URL not found');
  throw forbidden(row.usedAt ? 'This upload URL was already used' : 'This upload URL has expired');
}

export const tooLarge = (limit: number) => new HttpError(413, `File too large: the limit is ${limit / 1024 / 1024} MB`);

/** Refused bodies up to this size are read and dropped before answering. */
const DRAIN_LIMIT = 110 * 1024 * 1024;

/**
 * Copies `body` to `file`, failing with 413 when it passes `limit` bytes. Past the limit nothing
 * more is written; a request's body is then read and dropped up to `drainTo` bytes in all, so
 * that a client still sending (a body of no declared length) reads the 413 rather than a reset
 * connection. Past `drainTo` (or at once, for a fetched answer) the stream is stopped.
 */
export async function receive(body: ReadableStream<Uint8Array>, file: string, limit: number, drainTo = 0): Promise<number> {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size <= limit) done(null, chunk);
      else done(size > drainTo ? tooLarge(limit) : null);
    },
  });
  await pipeline(Readable.fromWeb(body as WebReadableStream), counter, createWriteStream(file));
  if (size > limit) throw tooLarge(limit);
  return size;
}

export interface StoredUpload {
  url: string;
  contentType: string;
  size: number;
  /** Audio only: the length in whole seconds, or null when the file does not say. */
  duration?: number | null;
}

/** An audio file's length in whole seconds (at least 1), or null when it cannot be read. */
async function audioDuration(file: string): Promise<number | null> {
  try {
    // `duration: true` reads on through files without a length header (VBR MP3s), so the
    // number is right rather than estimated; the file is at most 100 MB and already on disk.
    const { parseFile } = await import('music-metadata');
    const { format } = await parseFile(file, { duration: true, skipCovers: true });
    const seconds = format.duration;
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.max(1, Math.round(seconds)) : null;
  } catch {
    return null;
  }
}

/**
 * Handles PUT uploadURL: type and size checked from the header, then from the bytes. A refusal
 * may leave part of the body unread, so it also closes the connection: a client must not send
 * its next request on a socket the server is still draining.
 */
export const receiveUpload = (secret: string, request: Request): Promise<StoredUpload> => answeringRefusals(request, () => receive0(secret, request));

/**
 * Runs `work` on a request whose body is a file; when it refuses the file, the rest of a
 * reasonably sized body is read first so the client sees the answer, else the connection is
 * closed.
 */
export async function answeringRefusals<T>(request: Request, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    // Read what is left of a reasonably sized body so the client sees our answer rather than
    // a reset connection; past that, close the connection.
    if (!request.bodyUsed && Number(request.headers.get('content-length') ?? Infinity) <= DRAIN_LIMIT) {
      try {
        await request.body?.pipeTo(new WritableStream());
        throw err;
      } catch (drainErr) {
        if (drainErr === err) throw err;
      }
    }
    throw new HttpError(err.status, err.message, err.issues, { ...err.headers, Connection: 'close' });
  }
}

/**
 * Puts a checked file in its storage (UploadThing when UPLOADTHING_TOKEN is set, else
 * UPLOADS_DIR) and records it, so its length and type stay known wherever it lives.
 */
async function store(tmp: string, file: { contentType: string; ext: string; size: number; owner: string | null }): Promise<string> {
  const stored = env().UPLOADTHING_TOKEN
    ? { ...(await storeOnUploadThing(tmp, `${randomBytes(12).toString('hex')}.${file.ext}`, file.contentType)), storage: 'uploadthing' as const }
    : { ...storeLocal(tmp, file.ext), storage: 'local' as const };
  getDb()
    .insert(storedFiles)
    .values({ ...stored, contentType: file.contentType, size: file.size, createdBy: file.owner })
    .onConflictDoNothing()
    .run();
  // Smaller copies are made in the background (server/jobs).
  if (stored.storage === 'local') queueImage(getDb(), stored.url);
  return stored.url;
}

/**
 * Stores a file received into `tmp` when its bytes are an allowed file of `kind` (the type is
 * read from the bytes unless `sniffed` already says it); null when they are not.
 */
export async function storeChecked(tmp: string, kind: UploadKind, size: number, owner: string | null, sniffed?: { mime: string }): Promise<StoredUpload | null> {
  const type = sniffed ?? (await (await import('file-type')).fileTypeFromFile(tmp));
  const allowed = type ? ALLOWED[type.mime] : undefined;
  if (!type || !allowed || allowed.kind !== kind) return null;
  const duration = kind === 'audio' ? await audioDuration(tmp) : undefined;
  const url = await store(tmp, { contentType: type.mime, ext: allowed.ext, size, owner });
  return duration === undefined ? { url, contentType: type.mime, size } : { url, contentType: type.mime, size, duration };
}

const SUPPORTED: Record<UploadKind, string> = { image: 'JPEG, PNG, GIF, WebP or AVIF', audio: 'MP3, M4A, AAC, WAV or OGG', text: 'WebVTT or SRT transcript, or JSON chapters' };

/** A transcript's or chapters file's type, when its text is what it was declared to be. */
function textType(file: string, contentType: string | null): { mime: string } | undefined {
  const declared = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  const mime = sniffText(readFileSync(file, 'utf8'), declared);
  return mime ? { mime } : undefined;
}

async function receive0(secret: string, request: Request): Promise<StoredUpload> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(secret)) throw notFound('Upload URL not found');
  const kind = declaredKind(request.headers.get('content-type'));
  if (!kind) throw new HttpError(415, 'Only image and audio files, transcripts and chapters can be uploaded');
  const limit = LIMITS[kind];
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const owner = claim(secret);
  if (!request.body) throw new HttpError(400, 'The file is empty');

  const tmp = tempPath();
  try {
    const size = await receive(request.body, tmp, limit, DRAIN_LIMIT);
    if (size === 0) throw new HttpError(400, 'The file is empty');
    const sniffed = kind === 'text' ? textType(tmp, request.headers.get('content-type')) : undefined;
    const stored = kind === 'text' && !sniffed ? null : await storeChecked(tmp, kind, size, owner, sniffed);
    if (!stored) throw new HttpError(415, `The file is not a supported ${kind} (${SUPPORTED[kind]})`);
    return stored;
  } finally {
    rmSync(tmp, { force: true });
  }
}
