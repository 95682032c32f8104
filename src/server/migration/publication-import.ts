// Imports of a Substack or Ghost publication: the upload is streamed to a temp file (never held
// whole in memory), then read and written in a worker thread with its own database connection,
// so the server keeps answering meanwhile. One such import runs at a time. A file that is not a
// well-formed export is refused whole (400) before anything is written.
import { createWriteStream, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import busboy from 'busboy';
import { env } from '#server/env.ts';
import { bodyTooLarge, mediaType } from '#server/http/body.ts';
import { HttpError, badRequest, type Issue } from '#server/http/errors.ts';
import { contentChanged } from '#server/http/pages/page-cache.ts';
import { tempPath } from '#server/media/local.ts';
import type { PublicationImportResultDto } from '#shared/schemas/publication-import.ts';
import { MAX_GHOST_BYTES } from './ghost/read.ts';
import { MAX_SUBSTACK_BYTES } from './substack/read.ts';

export type PublicationFormat = 'substack' | 'ghost';

/** Room for the multipart boundaries and part headers around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

const FORMATS = {
  substack: { max: MAX_SUBSTACK_BYTES, ext: '.zip', types: /^application\/(?:x-)?zip(?:-compressed)?$/i, what: 'Substack export (.zip)' },
  ghost: { max: MAX_GHOST_BYTES, ext: '.json', types: /^(?:application|text)\/json$/i, what: 'Ghost export (.json)' },
} as const;

export interface PublicationUpload {
  format: PublicationFormat;
  /** The export, on disk until the import is over. */
  file: string;
  fileName: string;
  downloadAudio: boolean;
  /** Ghost: the old site's address, for the images its export names by `__GHOST_URL__`. */
  siteUrl: string | null;
}

/**
 * Streams the export out of a multipart request (field `file`; `downloadAudio` '1' to serve
 * episodes' audio from here; for Ghost, `siteUrl`) into a temp file: 413 over the limit, 415
 * for another kind of file, 400 without a file, for an empty one or a bad siteUrl.
 */
export async function readPublicationUpload(request: Request, format: PublicationFormat): Promise<PublicationUpload> {
  const spec = FORMATS[format];
  const tooLarge = () => bodyTooLarge(`The file is too large: the limit is ${spec.max / 1024 / 1024} MB`);
  const noFile = `Choose a ${spec.what}`;
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) throw new HttpError(415, 'Send the export as multipart/form-data with the field "file"');
  if (Number(request.headers.get('content-length') ?? 0) > spec.max + MULTIPART_OVERHEAD) throw tooLarge();
  if (!request.body) throw badRequest(noFile);

  const file = tempPath();
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': contentType }, limits: { files: 1, fileSize: spec.max, fields: 10, fieldSize: 2048 } });
  } catch {
    throw badRequest('The upload could not be read as a form');
  }
  let fileName: string | null = null;
  let refused: HttpError | null = null;
  let downloadAudio = false;
  let siteUrl: string | null = null;
  const written: Promise<void>[] = [];
  parser.on('field', (name, value) => {
    if (name === 'downloadAudio') downloadAudio = value === '1' || value === 'true' || value === 'on';
    if (name === 'siteUrl' && value.trim()) siteUrl = value.trim();
  });
  parser.on('file', (name, stream, info) => {
    if (name !== 'file' || fileName !== null) return void stream.resume();
    fileName = info.filename || `export${spec.ext}`;
    // Browsers send application/octet-stream for a file whose type they do not know.
    const type = mediaType(info.mimeType);
    const undeclared = type === '' || type === 'application/octet-stream';
    if (!fileName.toLowerCase().endsWith(spec.ext) || !(undeclared || spec.types.test(type))) {
      refused = new HttpError(415, `Only a ${spec.what} can be imported here`);
      return void stream.resume();
    }
    stream.on('limit', () => (refused ??= tooLarge()));
    written.push(pipeline(stream, createWriteStream(file)));
  });
  try {
    const parsed = new Promise<void>((done, failed) => {
      parser.once('close', done);
      parser.once('error', failed);
    });
    // Counted by hand, so a body without Content-Length is cut off at the limit.
    const reader = request.body.getReader();
    let raw = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      raw += value.byteLength;
      if (raw > spec.max + MULTIPART_OVERHEAD) {
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
  if (fileName === null) throw fail(badRequest(noFile, [{ path: ['file'], message: noFile }]));
  if (statSync(file).size === 0) throw fail(badRequest('The file is empty'));
  if (siteUrl !== null && !/^https?:\/\/[^/\s]+/i.test(siteUrl)) {
    const message = 'Old site address must be a full http(s) address';
    throw fail(badRequest(message, [{ path: ['siteUrl'], message }]));
  }
  return { format, file, fileName, downloadAudio, siteUrl };
}

/** What the worker answers: the result, or the HttpError it threw, as plain data. */
export type PublicationWorkerAnswer = { result: PublicationImportResultDto } | { error: { status: number; message: string; issues?: Issue[] | undefined } };

/** The worker's file, run by Node itself (the server runs from the project root). */
const WORKER = resolve('src/server/migration/publication-import-worker.ts');

let running = false;

/** Imports an uploaded export for `authorId` in a worker thread and answers its result; 409 while another runs. */
export async function importPublication(upload: PublicationUpload, authorId: string): Promise<PublicationImportResultDto> {
  if (running) {
    rmSync(upload.file, { force: true });
    throw new HttpError(409, 'An import is already running: wait for it to finish');
  }
  running = true;
  try {
    return await new Promise<PublicationImportResultDto>((done, fail) => {
      const worker = new Worker(WORKER, {
        workerData: { ...upload, authorId },
        env: { ...process.env, DATABASE_URL: env().DATABASE_URL },
        resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 512 },
      });
      worker.once('message', (answer: PublicationWorkerAnswer) => {
        if ('result' in answer) done(answer.result);
        else fail(new HttpError(answer.error.status, answer.error.message, answer.error.issues));
      });
      worker.once('error', fail);
      worker.once('exit', (code) => {
        if (code !== 0) fail(new Error(`The import worker stopped with code ${code}`));
      });
    });
  } finally {
    running = false;
    rmSync(upload.file, { force: true });
    contentChanged();
  }
}
