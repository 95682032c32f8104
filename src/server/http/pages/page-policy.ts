// The parts of a page's content security policy that only some pages need. The site-wide
// policy leaves them out; a page that uses one asks for it while it renders, so Stripe's script
// runs, and its frames and a video player's open, only where a payment is taken or a video shown.
import { EMBED_HOSTS } from '#shared/embeds.ts';

/** What a page can add to its policy (Astro.csp; undefined where the policy is off, as under `astro dev`). */
interface PagePolicy {
  insertScriptResource(resource: string): void;
  insertDirective(directive: string): void;
}

/** Stripe's script, its API and its payment (and 3-D Secure) frames: the checkout pages. */
export function allowStripe(policy: PagePolicy | undefined): void {
  policy?.insertScriptResource('https://js.stripe.com');
  policy?.insertDirective('connect-src https://api.stripe.com');
  policy?.insertDirective('frame-src https://js.stripe.com https://hooks.stripe.com');
}

const EMBED_FRAMES = `frame-src ${EMBED_HOSTS.map((h) => `https://${h}`).join(' ')}`;

/** The video players, for a page whose HTML (any of its parts) holds one. */
export function allowEmbedsIn(policy: PagePolicy | undefined, ...html: (string | null | undefined)[]): void {
  if (html.some((part) => part?.includes('<iframe'))) allowEmbeds(policy);
}

/** The video players, always: the admin's editor shows one as soon as it is added. */
export function allowEmbeds(policy: PagePolicy | undefined): void {
  policy?.insertDirective(EMBED_FRAMES);
}
