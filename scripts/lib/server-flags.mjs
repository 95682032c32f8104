// The V8 flags the server runs with, wherever it is started: `npm start` (scripts/bootstrap.mjs),
// the tests' servers and the bench (docs/decisions/005).
// - A 2 MB young generation keeps peak memory low. 8 MB takes about 13% off the server's CPU per
//   cached page under load (each answer allocates about 10 KB), but peak RSS while a newsletter
//   goes out with pages being read rose from 250 to 311 MB: memory is the scarcer of the two on
//   the small machines this site runs on.
// - A 1 GB heap limit: V8 then collects at 1.6 times the live heap instead of 4.
export const SERVER_FLAGS = ['--max-semi-space-size=2', '--max-old-space-size=1024'];
