// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import { fileURLToPath } from 'node:url';

/**
 * Emits src/server/app/config.ts and process.ts as dist/server/config.mjs and process.mjs in
 * the same server bundle as Astro's entry.mjs: modules they share land in shared chunks, so the
 * serving process (scripts/serve.ts) and the pages and API use one instance of each (one page
 * cache, job runner, rate-limit table, site document), with no hand-over through globalThis.
 * @type {import('vite').Plugin}
 */
const processEntry = {
  name: 'site:process-entry',
  applyToEnvironment: (environment) => environment.name === 'ssr',
  buildStart() {
    for (const name of ['config', 'process']) this.emitFile({ type: 'chunk', id: fileURLToPath(new URL(`./src/server/app/${name}.ts`, import.meta.url)), fileName: `${name}.mjs` });
  },
};

export default defineConfig({
  output: 'server',
  // The adapter's own cap on any request body: the largest upload (a product file, 500 MB) and
  // its headers. Routes cap far lower as they read (src/server/http/body.ts).
  adapter: node({ mode: 'standalone', bodySizeLimit: 501 * 1024 * 1024 }),
  integrations: [
    react(),
    // client:interaction: an island hydrated when first used (src/lib/hydrate-on-interaction.ts);
    // client:event: one hydrated when the page asks for it (src/lib/hydrate-on-event.ts).
    {
      name: 'hydrate-on-use',
      hooks: {
        'astro:config:setup': ({ addClientDirective }) => {
          addClientDirective({ name: 'interaction', entrypoint: fileURLToPath(new URL('./src/lib/hydrate-on-interaction.ts', import.meta.url)) });
          addClientDirective({ name: 'event', entrypoint: fileURLToPath(new URL('./src/lib/hydrate-on-event.ts', import.meta.url)) });
        },
      },
    },
  ],
  // Content-Security-Policy: Astro hashes its own inline scripts into a <meta> policy; the
  // middleware adds the header-only parts (frame-ancestors). Styles allow 'unsafe-inline'
  // because sanitised post HTML keeps text-align style attributes.
  security: {
    // Off: every API route checks the Origin of writes itself (src/server/app/endpoint.ts), and
    // the one-click unsubscribe POST that mail providers send (RFC 8058) has no Origin at all.
    checkOrigin: false,
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data: https:",
        "media-src 'self' https:",
        "font-src 'self'",
        // Added per page: Google Analytics' hosts when ANALYTICS_ID is set (SiteLayout); Stripe on
        // the checkout pages and the video players where a page shows one
        // (src/server/http/pages/page-policy.ts). Frames are otherwise this site's own (default-src).
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
      scriptDirective: { resources: ["'self'"] },
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  // The server answers on the host/port of the environment (PORT, HOST) at run time.
  server: { port: 4321, host: 'localhost' },
  vite: { plugins: [tailwindcss(), processEntry], ssr: { external: ['better-sqlite3'] } },
});
