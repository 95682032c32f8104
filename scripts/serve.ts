// Starts the built server: configuration checked first (a bad value stops start-up with a
// clear message), then Astro's standalone Node server, with a graceful stop on SIGTERM.
import type { Server } from 'node:http';
import { loadEnvOrExit } from '../src/server/env.ts';

loadEnvOrExit();
// React and Astro render in production mode unless told otherwise.
process.env.NODE_ENV ??= 'production';
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
