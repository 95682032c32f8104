// The one way an import runs off the server's event loop: a worker thread with a database
// connection of its own (DATABASE_URL passed on), which answers its result or the HttpError it
// threw, as plain data, and exits.
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { env } from '#server/env.ts';
import { HttpError, type Issue } from '#server/http/errors.ts';

/** What an import worker posts: its result, or the HttpError it threw, as plain data. */
export type ImportWorkerAnswer<R> = { result: R } | { error: { status: number; message: string; issues?: Issue[] | undefined } };

/**
 * Runs the worker at `file` with `workerData` and answers its result: its HttpError is thrown
 * again as one, and a worker that dies or stops without answering fails with an Error.
 */
export function runImportWorker<R>(file: string, workerData: unknown, resourceLimits: ResourceLimits): Promise<R> {
  return new Promise<R>((done, fail) => {
    const worker = new Worker(file, { workerData, env: { ...process.env, DATABASE_URL: env().DATABASE_URL }, resourceLimits });
    worker.once('message', (answer: ImportWorkerAnswer<R>) => {
      if ('result' in answer) done(answer.result);
      else fail(new HttpError(answer.error.status, answer.error.message, answer.error.issues));
    });
    worker.once('error', fail);
    worker.once('exit', (code) => {
      if (code !== 0) fail(new Error(`The import worker stopped with code ${code}`));
    });
  });
}
