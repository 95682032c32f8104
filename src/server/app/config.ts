// What scripts/serve.ts checks before it loads the rest of the server: the configuration and
// GEOIP_DB's file. The build emits it as dist/server/config.mjs, a small entry of the same
// bundle as Astro's entry and process.mjs, so a bad setting stops the start at once with its
// message, and the modules it loads are the ones the rest of the server then uses.
export { loadEnvOrExit } from '#server/env.ts';
export { openCountryDb } from '#server/analytics/country.ts';
