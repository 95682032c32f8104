// Works out the busy times of one calendar on a thread of its own (busy-times.ts), so that a
// large calendar never holds up the server's answers while it is read. Gets { ics, zone, from,
// to }; answers { busy } or { error }.
import { parentPort, workerData } from 'node:worker_threads';
import { busyTimes } from './busy-times.ts';

const { ics, zone, from, to } = workerData as { ics: string; zone: string; from: number; to: number };
try {
  parentPort!.postMessage({ busy: busyTimes(ics, zone, from, to) });
} catch (err) {
  parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
