// npm run images: makes the smaller WebP/AVIF copies of every image already in UPLOADS_DIR
// (uploads from before copies were made), then exits. The running server makes them for new
// uploads by itself, and for an old one the first time a page shows it.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openDb } from '#db/client.ts';
import { loadEnvOrExit } from '#server/env.ts';
import { isLocalImage, processNextImage, queueImage } from '#server/media/images.ts';
import { uploadsRoot } from '#server/media/local.ts';

const env = loadEnvOrExit();
const db = openDb(env.DATABASE_URL);
const root = uploadsRoot();

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) yield* files(join(dir, entry.name));
    else yield join(dir, entry.name);
  }
}

let queued = 0;
for (const file of existsSync(root) ? files(root) : []) {
  const url = `/uploads/${relative(root, file).split('\\').join('/')}`;
  if (isLocalImage(url)) {
    queueImage(db, url);
    queued += 1;
  }
}
let made = 0;
while (await processNextImage(db)) made += 1;
console.log(`[images] ${queued} images in ${root}; ${made} processed now (the others had their copies already)`);
db.$client.close();
