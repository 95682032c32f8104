// Shapes the bench's sections share with scripts/bench.ts's helpers.
import type { ChildProcess } from 'node:child_process';

/** A server the bench started. */
export interface Server {
  url: string;
  proc: ChildProcess;
}

/** A page's answer as the ceiling server sends it. */
export type Answer = { body: Buffer; type: string; encoding: string | null };

/** One load run's figures. */
export interface Rates {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  seconds: number;
}
