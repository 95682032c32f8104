// Starts the built server: configuration checked first (a bad value stops start-up with a
// clear message), then Astro's standalone Node server, with a graceful stop on SIGTERM.
import type { Server } from 'node:http';
import { parseEnv } from '../src/server/env.ts';

let env;
try {
  env = parseEnv();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
process.env.PORT = String(env.PORT);
process.env.HOST = env.HOST;
process.env.SITE_URL = env.SITE_URL;
process.env.BETTER_AUTH_SECRET = env.BETTER_AUTH_SECRET;
process.env.ASTRO_NODE_AUTOSTART = 'disabled';

const entry = new URL('../dist/server/entry.mjs', import.meta.url);
const { startServer } = (await import(entry.href)) as {
  startServer: () => { server: { server: Server; stop(): Promise<void> } };
};
const { server } = startServer();

let stopping = false;
function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[serve] ${signal}: finishing in-flight requests`);
  // Stop accepting connections; let in-flight requests finish, then exit (the database
  // handle checkpoints and closes on exit).
  server.server.close(() => process.exit(0));
  server.server.closeIdleConnections();
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
