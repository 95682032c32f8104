// What a server loads before it answers: not the SDKs only some requests need (payments,
// UploadThing, reading uploaded files). Every process pays for what it loads at start-up in
// CPU and memory, each test server and each restart included; these load when first used.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { ROOT, TMP_DIR } from '#scripts/lib/paths.ts';
import { startServer } from '#tests/support/server.ts';

it('a started server (mail on, so every background job runs) has loaded no Stripe, UploadThing, music-metadata or file-type module', async () => {
  const list = `${TMP_DIR}${randomUUID()}-modules.txt`;
  const server = await startServer({ NODE_OPTIONS: `--import ${ROOT}tests/support/loaded-modules.mjs`, LOADED_MODULES: list, SMTP_URL: 'smtp://127.0.0.1:9' });
  expect((await fetch(`${server.url}/`)).status).toBe(200);
  await server.stop();
  const loaded = readFileSync(list, 'utf8').split('\n');
  // The list is real: the server's own bundle and its database driver are in it.
  expect(loaded.some((u) => u.includes('/dist/server/'))).toBe(true);
  expect(loaded.some((u) => u.includes('/node_modules/better-sqlite3/'))).toBe(true);
  const packages = new Set(loaded.map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]));
  expect(['stripe', 'uploadthing', '@uploadthing/shared', 'effect', '@effect/platform', 'music-metadata', 'file-type'].filter((p) => packages.has(p))).toEqual([]);
});
