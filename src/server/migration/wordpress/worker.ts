// Runs one WordPress import off the server's event loop, on a database connection of its own
// (closed when the thread exits):
// records its progress and, at the end, its counts and report in the run's row, then answers
// the result (or the HttpError it threw, as plain data) and exits.
import { parentPort, workerData } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import { importRuns } from '#db/schema/imports.ts';
import { getDb } from '#server/db.ts';
import { HttpError } from '#server/http/errors.ts';
import type { WorkerAnswer } from './run.ts';
import { importWxrFile } from './import.ts';

const { file, fileName, downloadAudio, authorId, runId } = workerData as { file: string; fileName: string; downloadAudio: boolean; authorId: string; runId: number };
const db = getDb();
const setRun = (values: Partial<typeof importRuns.$inferInsert>) => db.update(importRuns).set(values).where(eq(importRuns.id, runId)).run();

// Progress is written at most every quarter second: a page polling it sees it move.
let lastWrite = 0;
let answer: WorkerAnswer;
try {
  const { result, report } = await importWxrFile(db, file, {
    authorId,
    downloadAudio,
    fileName,
    onProgress: (done, total) => {
      const now = Date.now();
      if (now - lastWrite < 250 && done < total) return;
      lastWrite = now;
      setRun({ done, total });
    },
  });
  setRun({ status: 'done', imported: result.imported, updated: result.updated, skipped: result.skipped, failed: result.failed, report, finishedAt: new Date() });
  answer = { result };
} catch (err) {
  setRun({ status: 'failed', error: err instanceof Error ? err.message : String(err), finishedAt: new Date() });
  if (!(err instanceof HttpError)) throw err;
  answer = { error: { status: err.status, message: err.message, issues: err.issues } };
}
parentPort!.postMessage(answer);
