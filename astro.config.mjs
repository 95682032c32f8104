// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  integrations: [react()],
  // Content-Security-Policy: Astro hashes its own inline scripts into a <meta> policy; the
  // middleware adds the header-only parts (frame-ancestors). Styles allow 'unsafe-inline'
  // because sanitised post HTML keeps text-align style attributes.
  security: {
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data: https:",
        "media-src 'self' https:",
        "font-src 'self'",
        "connect-src 'self' https://api.stripe.com https://*.google-analytics.com https://*.analytics.google.com https://www.googletagmanager.com",
        "frame-src https://js.stripe.com https://hooks.stripe.com",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
      scriptDirective: { resources: ["'self'", 'https://js.stripe.com', 'https://www.googletagmanager.com'] },
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  // The server answers on the host/port of the environment (PORT, HOST) at run time.
  server: { port: 4321, host: 'localhost' },
  vite: {
    plugins: [tailwindcss()],
    ssr: { external: ['better-sqlite3'] },
  },
});
