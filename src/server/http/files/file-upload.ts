// One file out of a multipart form, streamed to disk and counted as it arrives: the declared
// length is checked first, then the raw body and the file itself, so nothing past the cap is
// kept, with or without a Content-Length.
import { createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { bodyTooLarge, mediaType } from '#server/http/body.ts';
import { HttpError, badRequest } from '#server/http/errors.ts';

/** Room for the multipart boundaries, part headers and small fields around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

export interface FileUploadOptions {
  /** Where the file is written (removed again when the upload is refused). */
  path: string;
  maxBytes: number;
  /** The 413's message. */
  tooLarge: string;
  /** The 400's message when no file came. */
  noFile: string;
  /** Null when a file of this name and declared media type is taken, else the 415's message. */
  refuse: (fileName: string, type: string) => string | null;
}

export interface FileUpload {
  path: string;
  fileName: string;
  size: number;
  /** The form's other fields (up to 10, 1 KB each). */
  fields: Record<string, string>;
}

/** Streams the field `file` of a multipart request to `options.path`: 413 over the cap, 415 for a refused type, 400 without a file. */
export async function readFileUpload(request: Request, options: FileUploadOptions): Promise<FileUpload> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) throw new HttpError(415, 'Send the file as multipart/form-data with the field "file"');
  const declared = Number(request.headers.get('content-length') ?? 0);
  const rawCap = options.maxBytes + MULTIPART_OVERHEAD;
  if (declared > rawCap) throw bodyTooLarge(options.tooLarge, declared);
  if (!request.body) throw badRequest(options.noFile);
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': contentType }, limits: { files: 1, fileSize: options.maxBytes, fields: 10, fieldSize: 1024 } });
  } catch {
    throw badRequest('The upload could not be read as a form');
  }
  let fileName: string | null = null;
  let size = 0;
  let refused: HttpError | null = null;
  const fields: Record<string, string> = {};
  const written: Promise<void>[] = [];
  parser.on('field', (name, value) => (fields[name] = value));
  parser.on('file', (name, stream, info) => {
    if (name !== 'file' || fileName !== null) return void stream.resume();
    fileName = info.filename || 'upload';
    // Browsers send application/octet-stream for a file whose type they do not know.
    const reason = options.refuse(fileName, mediaType(info.mimeType));
    if (reason) {
      refused = new HttpError(415, reason);
      return void stream.resume();
    }
    stream.on('data', (chunk: Buffer) => (size += chunk.byteLength));
    stream.on('limit', () => (refused ??= bodyTooLarge(options.tooLarge)));
    written.push(pipeline(stream, createWriteStream(options.path)));
  });
  const fail = (err: HttpError) => {
    rmSync(options.path, { force: true });
    return err;
  };
  try {
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
      if (raw > rawCap) {
        reader.releaseLock();
        parser.destroy();
        throw bodyTooLarge(options.tooLarge);
      }
      if (!parser.write(value)) await once(parser, 'drain');
    }
    parser.end();
    await parsed;
    await Promise.all(written);
  } catch (err) {
    throw fail(err instanceof HttpError ? err : badRequest('The upload could not be read as a form'));
  }
  if (refused) throw fail(refused);
  if (fileName === null) throw fail(badRequest(options.noFile, [{ path: ['file'], message: options.noFile }]));
  if (size === 0) throw fail(badRequest('The file is empty'));
  return { path: options.path, fileName, size, fields };
}
