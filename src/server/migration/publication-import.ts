// Imports of a Substack or Ghost publication: the upload is streamed to a temp file (never held
// whole in memory), then read and written in a worker thread with its own database connection,
// so the server keeps answering meanwhile. One such import runs at a time. A file that is not a
// well-formed export is refused whole (400) before anything is written.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { HttpError, badRequest } from '#server/http/errors.ts';
import { readFileUpload } from '#server/http/files/file-upload.ts';
import { contentChanged } from '#server/http/pages/page-cache.ts';
import { tempPath } from '#server/media/local.ts';
import type { PublicationImportResultDto } from '#shared/schemas/publication-import.ts';
import { MAX_GHOST_BYTES } from './ghost/read.ts';
import { runImportWorker, type ImportWorkerAnswer } from './import-worker.ts';
import { MAX_SUBSTACK_BYTES } from './substack/read.ts';

export type PublicationFormat = 'substack' | 'ghost';

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
  const upload = await readFileUpload(request, {
    path: tempPath(),
    maxBytes: spec.max,
    tooLarge: `The file is too large: the limit is ${spec.max / 1024 / 1024} MB`,
    noFile: `Choose a ${spec.what}`,
    // Browsers send application/octet-stream for a file whose type they do not know.
    refuse: (fileName, type) =>
      fileName.toLowerCase().endsWith(spec.ext) && (type === '' || type === 'application/octet-stream' || spec.types.test(type)) ? null : `Only a ${spec.what} can be imported here`,
  });
  const { downloadAudio = '', siteUrl = '' } = upload.fields;
  if (siteUrl.trim() && !/^https?:\/\/[^/\s]+/i.test(siteUrl.trim())) {
    rmSync(upload.path, { force: true });
    const message = 'Old site address must be a full http(s) address';
    throw badRequest(message, [{ path: ['siteUrl'], message }]);
  }
  return { format, file: upload.path, fileName: upload.fileName, downloadAudio: ['1', 'true', 'on'].includes(downloadAudio), siteUrl: siteUrl.trim() || null };
}

/** What the worker answers: the result, or the HttpError it threw, as plain data. */
export type PublicationWorkerAnswer = ImportWorkerAnswer<PublicationImportResultDto>;

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
    // The thread reads zips and JSON of many megabytes: room for that, and no more.
    return await runImportWorker<PublicationImportResultDto>(WORKER, { ...upload, authorId }, { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 512 });
  } finally {
    running = false;
    rmSync(upload.file, { force: true });
    contentChanged();
  }
}
