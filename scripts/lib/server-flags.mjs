// The V8 flags the server runs with, wherever it is started: `npm start` (scripts/bootstrap.mjs),
// the tests' servers and the bench (docs/decisions/005).
// - An 8 MB young generation: each page answered allocates about 10 KB, and a young generation
//   of 2 MB was collected a hundred times a second under load, a tenth of the server's CPU; at
//   8 MB it is collected a quarter as often, for about 15 MB more peak memory. V8's default size,
//   taken from the machine's memory, adds about 150 MB.
// - A 1 GB heap limit: V8 then collects at 1.6 times the live heap instead of 4.
export const SERVER_FLAGS = ['--max-semi-space-size=8', '--max-old-space-size=1024'];
