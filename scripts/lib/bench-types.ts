// Shapes the bench's sections share with scripts/bench.ts's helpers.
import type { ChildProcess } from 'node:child_process';

/** A server the bench started. */
export interface Server {
  url: string;
  proc: ChildProcess;
}

/**
 * A page's answer as the ceiling server sends it; `headers` are every header the site sent with
 * it (but those Node adds itself and the length), for a ceiling that sends them too.
 */
export type Answer = { body: Buffer; type: string; encoding: string | null; headers: [string, string][] };

/** One load run's figures. */
export interface Rates {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  seconds: number;
}
