// WordPress import: an admin uploads a WXR export (the XML file of Tools > Export); its posts,
// pages, comments, tags, images and podcast episodes come over. The upload is streamed to a
// file (never held whole in memory); the import runs in a worker thread with its own database
// connection, so the server keeps answering meanwhile, and records its progress and its
// report in `import_runs`. One import runs at a time. A file that is not a well-formed export
// is refused whole before anything is written.
import { createWriteStream, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { and, desc, eq } from 'drizzle-orm';
import { importRuns } from '#db/schema/imports.ts';
import { getDb } from '#server/db.ts';
import { bodyTooLarge, mediaType } from '#server/http/body.ts';
import { HttpError, badRequest, notFound } from '#server/http/errors.ts';
import { contentChanged } from '#server/http/pages/page-cache.ts';
import { tempPath } from '#server/media/local.ts';
import type { ImportRunDto } from '#shared/schemas/blog-post.ts';
import { runImportWorker, type ImportWorkerAnswer } from '#server/migration/import-worker.ts';
import type { ImportResult } from './import.ts';

export type { ImportResult, KeptPrivate } from './import.ts';

/** The largest export accepted: years of posts with their comments stay well below it. */
export const MAX_WXR_BYTES = 100 * 1024 * 1024;
/** Room for the multipart boundaries and part headers around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

const TOO_LARGE = `The file is too large: the limit is ${MAX_WXR_BYTES / 1024 / 1024} MB`;
const tooLarge = () => bodyTooLarge(TOO_LARGE);
const NO_FILE = 'Choose a WordPress export file (.xml)';

const XML_TYPE = /^(?:text|application)\/(?:[\w.+-]+\+)?xml$/i;

export interface WxrUpload {
  /** The export, on disk until the import is over. */
  file: string;
  fileName: string;
  downloadAudio: boolean;
}

/**
 * Streams the export out of a multipart request (field `file`, and `downloadAudio` '1' or
 * 'true' to serve episodes' audio from here) into a temp file: 413 over the limit, 415 unless
 * it is an .xml file of an XML type (or an undeclared one), 400 without a file or for an empty one.
 */
export async function readWxrUpload(request: Request): Promise<WxrUpload> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new HttpError(415, 'Send the export as multipart/form-data with the field "file"');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_WXR_BYTES + MULTIPART_OVERHEAD) throw tooLarge();
  if (!request.body) throw badRequest(NO_FILE);

  const file = tempPath();
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': contentType }, limits: { files: 1, fileSize: MAX_WXR_BYTES, fields: 10, fieldSize: 1024 } });
  } catch {
    throw badRequest('The upload could not be read as a form');
  }
  let fileName: string | null = null;
  let refused: HttpError | null = null;
  let downloadAudio = false;
  const written: Promise<void>[] = [];
  parser.on('field', (name, value) => {
    if (name === 'downloadAudio') downloadAudio = value === '1' || value === 'true' || value === 'on';
  });
  parser.on('file', (name, stream, info) => {
    if (name !== 'file' || fileName !== null) return void stream.resume();
    fileName = info.filename || 'export.xml';
    // Browsers send application/octet-stream for a file whose type they do not know.
    const type = mediaType(info.mimeType);
    const undeclared = type === '' || type === 'application/octet-stream';
    if (!fileName.toLowerCase().endsWith('.xml') || !(undeclared || XML_TYPE.test(type))) {
      refused = new HttpError(415, 'Only WordPress export files (.xml) can be imported');
      return void stream.resume();
    }
    stream.on('limit', () => (refused ??= tooLarge()));
    written.push(pipeline(stream, createWriteStream(file)));
  });
  try {
    // Read by hand, counting the raw body too, so a body without Content-Length is cut off at
    // the limit without waiting for the rest of it.
    const parsed = new Promise<void>((done, failed) => {
      parser.once('close', done);
      parser.once('error', failed);
    });
    const reader = request.body.getReader();
    let raw = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      raw += value.byteLength;
      if (raw > MAX_WXR_BYTES + MULTIPART_OVERHEAD) {
        reader.releaseLock();
        parser.destroy();
        throw tooLarge();
      }
      if (!parser.write(value)) await once(parser, 'drain');
    }
    parser.end();
    await parsed;
    await Promise.all(written);
  } catch (err) {
    rmSync(file, { force: true });
    if (err instanceof HttpError) throw err;
    throw badRequest('The upload could not be read as a form');
  }
  const fail = (err: HttpError) => {
    rmSync(file, { force: true });
    return err;
  };
  if (refused) throw fail(refused);
  if (fileName === null) throw fail(badRequest(NO_FILE, [{ path: ['file'], message: NO_FILE }]));
  if (statSync(file).size === 0) throw fail(badRequest('The file is empty'));
  return { file, fileName, downloadAudio };
}

/** What the worker answers: the result, or the HttpError it threw, as plain data. */
export type WorkerAnswer = ImportWorkerAnswer<ImportResult>;

/** The worker's file, run by Node itself (the server runs from the project root). */
const WORKER = resolve('src/server/migration/wordpress/worker.ts');

/** The import this process is running, if any. */
let running: Promise<ImportResult> | null = null;

/**
 * Imports an uploaded export for `authorId` in a worker thread and answers its result; 409
 * while another import runs. The import goes on to its end even when the request that started
 * it is gone; GET /api/wordpress/import shows how far it is.
 */
export function importWordPress(upload: WxrUpload, authorId: string): Promise<ImportResult> {
  const db = getDb();
  if (running) {
    rmSync(upload.file, { force: true });
    throw new HttpError(409, 'An import is already running: wait for it to finish');
  }
  endAbandonedRuns();
  const run = db
    .insert(importRuns)
    .values({ fileName: upload.fileName.slice(0, 255), startedBy: authorId })
    .returning({ id: importRuns.id })
    .get();
  // The import streams, so little is live at once: a small young generation makes the thread
  // collect often rather than grow (the server runs with the same setting).
  const job = runImportWorker<ImportResult>(
    WORKER,
    { file: upload.file, fileName: upload.fileName, downloadAudio: upload.downloadAudio, authorId, runId: run.id },
    { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 256 },
  )
    .then((result) => ({ ...result, runId: run.id }))
    .catch((err: unknown) => {
      // A worker that died says nothing itself: the run ends with its error.
      db.update(importRuns)
        .set({ status: 'failed', error: err instanceof Error ? err.message : String(err), finishedAt: new Date() })
        .where(and(eq(importRuns.id, run.id), eq(importRuns.status, 'running')))
        .run();
      throw err;
    })
    .finally(() => {
      running = null;
      rmSync(upload.file, { force: true });
      // Whatever came in shows on the public pages now, even when the request that started
      // the import is gone.
      contentChanged();
    });
  running = job;
  return job;
}

let abandonedEnded = false;

/**
 * A run still marked running when this process looks for the first time was cut short (the
 * server stopped): it is over, and says how to finish it. A worker dying in this process
 * ends its own run. Once per process, before its first import.
 */
function endAbandonedRuns(): void {
  if (abandonedEnded) return;
  abandonedEnded = true;
  getDb()
    .update(importRuns)
    .set({ status: 'failed', error: 'The import stopped before its end (the server restarted); import the same file again to finish it: what came over already is skipped', finishedAt: new Date() })
    .where(eq(importRuns.status, 'running'))
    .run();
}

/** The latest import run, or null when there has been none. */
export function latestImportRun(): ImportRunDto | null {
  endAbandonedRuns();
  const row = getDb().select().from(importRuns).orderBy(desc(importRuns.id)).limit(1).get();
  if (!row) return null;
  const { report: _report, startedBy: _by, ...rest } = row;
  return { ...rest, startedAt: row.startedAt.toISOString(), finishedAt: row.finishedAt?.toISOString() ?? null };
}

/** A finished run's report, as the text file the admin downloads. */
export function importReport(id: number): Response {
  const row = getDb().select({ report: importRuns.report, error: importRuns.error, status: importRuns.status }).from(importRuns).where(eq(importRuns.id, id)).get();
  if (!row) throw notFound('Import not found');
  const text = row.report ?? (row.status === 'running' ? 'The import is still running.\n' : `The import failed: ${row.error ?? 'unknown error'}\n`);
  return new Response(text, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Disposition': `attachment; filename="wordpress-import-${id}.txt"`, 'Cache-Control': 'no-store' } });
}
