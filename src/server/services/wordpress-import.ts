// WordPress import: an admin uploads a WXR export (the XML file of Tools > Export) and its
// posts become blog posts. The file is refused whole when anything about it is wrong, and the
// import is one transaction: it never leaves half a blog behind. Parsing and writing run in a
// worker thread with its own database connection, so the server keeps answering meanwhile.
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { env } from '#server/context.ts';
import { bodyTooLarge, mediaType, readBody } from '#server/http/body.ts';
import { HttpError, badRequest, type Issue } from '#server/http/errors.ts';
import type { ImportResult } from './wordpress/import.ts';

export type { ImportResult, KeptPrivate } from './wordpress/import.ts';

/** The largest export accepted; real blogs with years of posts stay well below it. */
export const MAX_WXR_BYTES = 10 * 1024 * 1024;
/** Room for the multipart boundaries and part headers around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

const TOO_LARGE = `The file is too large: the limit is ${MAX_WXR_BYTES / 1024 / 1024} MB`;
const tooLarge = () => bodyTooLarge(TOO_LARGE);

const XML_TYPE = /^(?:text|application)\/(?:[\w.+-]+\+)?xml$/i;

/**
 * Takes the export out of a multipart request (field `file`): 413 over 10 MB, 415 unless it
 * is multipart with an .xml file of an XML type (or an undeclared one), 400 without a file.
 */
export async function readWxrUpload(request: Request): Promise<string> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new HttpError(415, 'Send the export as multipart/form-data with the field "file"');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_WXR_BYTES + MULTIPART_OVERHEAD) throw tooLarge();
  if (!request.body) throw badRequest('Choose a WordPress export file (.xml)');
  const raw = await readBody(request, MAX_WXR_BYTES + MULTIPART_OVERHEAD, TOO_LARGE);

  let form: FormData;
  try {
    form = await new Response(raw, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw badRequest('The upload could not be read as a form');
  }
  const file = form.get('file');
  if (!file || typeof file === 'string') throw badRequest('Choose a WordPress export file (.xml)', [{ path: ['file'], message: 'Choose a WordPress export file (.xml)' }]);
  if (file.size > MAX_WXR_BYTES) throw tooLarge();
  // Browsers send application/octet-stream for a file whose type they do not know.
  const type = mediaType(file.type);
  const undeclared = type === '' || type === 'application/octet-stream';
  if (!file.name.toLowerCase().endsWith('.xml') || !(undeclared || XML_TYPE.test(type))) {
    throw new HttpError(415, 'Only WordPress export files (.xml) can be imported');
  }
  if (file.size === 0) throw badRequest('The file is empty');
  return file.text();
}

/** What the worker answers: the result, or the HttpError it threw, as plain data. */
export type WorkerAnswer = { result: ImportResult } | { error: { status: number; message: string; issues?: Issue[] | undefined } };

/** The worker's file, run by Node itself (the server runs from the project root). */
const WORKER = resolve('src/server/services/wordpress-import-worker.ts');

/** Imports the posts of a WXR document for `authorId` (see importWxr) in a worker thread. */
export function importWordPress(xml: string, authorId: string): Promise<ImportResult> {
  return new Promise((done, fail) => {
    const worker = new Worker(WORKER, { workerData: { xml, authorId, databaseUrl: env().DATABASE_URL } });
    worker.once('message', (answer: WorkerAnswer) => {
      if ('result' in answer) done(answer.result);
      else fail(new HttpError(answer.error.status, answer.error.message, answer.error.issues));
    });
    worker.once('error', fail);
    worker.once('exit', (code) => {
      if (code !== 0) fail(new Error(`The import worker stopped with code ${code}`));
    });
  });
}
