/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    user: import('./server/session.ts').SessionUser | null;
    requestId: string;
    /** The message a form posted without JavaScript left for this page. */
    flash: import('./server/http/flash.ts').Flash | null;
  }
}
