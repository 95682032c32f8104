/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    user: import('./server/session.ts').SessionUser | null;
    requestId: string;
  }
}
