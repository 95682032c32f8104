// After a build: brotli and gzip copies beside each compressible client asset, so the server
// loads them at start instead of compressing on the request path (or at start-up).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.webmanifest', '.xml', '.txt']);
const dir = new URL('../dist/client/', import.meta.url).pathname;

function walk(d: string): string[] {
  return readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

let count = 0;
for (const file of walk(dir)) {
  if (!COMPRESSIBLE.has(extname(file)) || statSync(file).size < 512) continue;
  const raw = readFileSync(file);
  writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
  count += 1;
}
console.log(`[compress] ${count} assets`);
