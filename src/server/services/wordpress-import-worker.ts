// Runs one WordPress import off the server's event loop: parses the export, prepares the posts
// and writes them in one transaction on a connection of its own, then answers the result (or
// the HttpError, as plain data) and exits.
import { parentPort, workerData } from 'node:worker_threads';
import { openDb } from '#db/client.ts';
import { HttpError } from '#server/http/errors.ts';
import type { WorkerAnswer } from './wordpress-import.ts';
import { importWxr } from './wordpress/import.ts';

const { xml, authorId, databaseUrl } = workerData as { xml: string; authorId: string; databaseUrl: string };
const db = openDb(databaseUrl);
let answer: WorkerAnswer;
try {
  answer = { result: importWxr(db, xml, authorId) };
} catch (err) {
  if (!(err instanceof HttpError)) throw err;
  answer = { error: { status: err.status, message: err.message, issues: err.issues } };
} finally {
  db.$client.close();
}
parentPort!.postMessage(answer);
