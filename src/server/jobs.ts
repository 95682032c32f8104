// Work the server does on its own, on a timer, with no request to start it: it runs in the
// serving process (scripts/serve.ts starts it) and never keeps the process alive by itself.
import { getDb } from '../../db/client.ts';
import { logger } from './log.ts';
import { sweepAbandonedOrders } from './services/abandoned-orders.ts';

const HOUR_MS = 60 * 60_000;

function run(name: string, job: () => number): void {
  try {
    const done = job();
    if (done > 0) logger.info({ job: name, done }, 'background job');
  } catch (err) {
    logger.error({ err, job: name }, 'background job failed');
  }
}

/** Starts the periodic jobs: abandoned checkouts' pending orders are removed hourly. */
export function startBackgroundJobs(): void {
  const sweep = () => run('sweep-abandoned-orders', () => sweepAbandonedOrders(getDb()));
  setTimeout(sweep, 5_000).unref();
  setInterval(sweep, HOUR_MS).unref();
}
