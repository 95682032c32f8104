// A real built server on a free port with its own SQLite file, for one test file.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { openDb, type Db } from '#db/client.ts';
import { freePort, waitFor } from '#scripts/lib/net.ts';
import { ROOT, TEMPLATE_DB, TMP_DIR } from '#scripts/lib/paths.ts';
import { SERVER_FLAGS } from '#scripts/lib/server-flags.mjs';

export interface TestServer {
  url: string;
  dbFile: string;
  /** The same SQLite file, opened in the test process (for factories and checks). */
  db: Db;
  proc: ChildProcess;
  /** What the server has printed so far (its log lines). */
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts a server on a fresh copy of the migrated template, or on the DATABASE_URL given. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const dbFile = extraEnv.DATABASE_URL ?? `${TMP_DIR}${randomUUID()}.db`;
  if (!extraEnv.DATABASE_URL) copyFileSync(TEMPLATE_DB, dbFile);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  // The same V8 flags as `npm start`.
  const proc = spawn(process.execPath, [...SERVER_FLAGS, 'scripts/serve.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATABASE_URL: dbFile,
      UPLOADS_DIR: `${TMP_DIR}${randomUUID()}-uploads`,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: url,
      SEED_DEMO: 'false',
      BETTER_AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      LOG_LEVEL: 'warn',
      // Many requests come from one address here; tests/api/rate-limits.test.ts turns limits on.
      RATE_LIMITS: 'off',
      FORM_MIN_FILL_MS: '0',
      ASTRO_NODE_LOGGING: 'disabled',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.on('data', (d) => (log += d));
  proc.stderr.on('data', (d) => (log += d));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitFor(`${url}/healthz`),
      exited.then(() => {
        throw new Error(`server exited:\n${log}`);
      }),
    ]);
  } catch (err) {
    proc.kill('SIGKILL');
    throw err;
  }
  const db = openDb(dbFile);
  return {
    url,
    dbFile,
    db,
    proc,
    output: () => log,
    stop: async () => {
      db.$client.close();
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await exited;
      }
    },
  };
}
