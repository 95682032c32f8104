/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    user: import('./server/accounts/session.ts').SessionUser | null;
    requestId: string;
    /** The message a form posted without JavaScript left for this page. */
    flash: import('./server/http/flash.ts').Flash | null;
    /** The site document the page renders from (the draft while an admin previews it). */
    site: import('./shared/schemas/site.ts').SiteDocument;
    /** Whether `site` is the draft: the page shows a bar saying so. */
    sitePreview: boolean;
  }
}
