// Runs one Substack or Ghost import off the server's event loop, on a database connection of its
// own (closed when the thread exits): answers the result (or the HttpError it threw, as plain
// data) and exits.
import { rmSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { getDb } from '#server/db.ts';
import { HttpError } from '#server/http/errors.ts';
import type { PublicationImportResultDto } from '#shared/schemas/publication-import.ts';
import { readGhostExport } from './ghost/read.ts';
import type { PublicationUpload, PublicationWorkerAnswer } from './publication-import.ts';
import { openSubstackExport, substackItems } from './substack/read.ts';
import { importSubscriberList } from './substack/subscribers.ts';

const upload = workerData as PublicationUpload & { authorId: string };
const db = getDb();
const options = { authorId: upload.authorId, source: upload.format, downloadAudio: upload.downloadAudio };

// The writer (and the media pipeline it loads) is loaded only once the file has passed its
// checks, so a bad file is refused quickly.
const writer = () => import('./publication.ts');

async function run(): Promise<PublicationImportResultDto> {
  if (upload.format === 'ghost') {
    const items = await readGhostExport(upload.file, { siteUrl: upload.siteUrl });
    return (await writer()).writeItems(db, items, items.length, options);
  }
  const exp = await openSubstackExport(upload.file);
  try {
    const result = await (await writer()).writeItems(db, substackItems(exp), exp.rows.length, options);
    if (exp.emailList) result.subscribers = { file: exp.emailList.name, ...(await importSubscriberList(exp.emailList.file, exp.emailList.name, 'substack')) };
    return result;
  } finally {
    exp.zip.close();
    if (exp.emailList) rmSync(exp.emailList.file, { force: true });
  }
}

let answer: PublicationWorkerAnswer;
try {
  answer = { result: await run() };
} catch (err) {
  if (!(err instanceof HttpError)) throw err;
  answer = { error: { status: err.status, message: err.message, issues: err.issues } };
}
parentPort!.postMessage(answer);
