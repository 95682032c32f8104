// The public links and settings a page needs: the site's origin from the environment, the
// rest from the site document the page renders (never secrets).
import type { SiteDocument } from '#shared/schemas/site.ts';
import { env } from '#server/env.ts';

export interface SiteConfig {
  siteUrl: string;
  bookingUrl: string;
  applePodcastsUrl: string;
  spotifyUrl: string;
  /** The contact e-mail; null when there is none (no address is made up from the host). */
  contactEmail: string | null;
  analyticsId: string | null;
}

export function siteConfig(site: SiteDocument): SiteConfig {
  return {
    siteUrl: env().SITE_URL,
    // Without an external booking page, 'Book' links go to the site's own booking of a strategy call.
    bookingUrl: site.bookingUrl || '/book/strategy-call',
    // Without directory links, the podcast buttons offer the RSS feed any app can follow.
    applePodcastsUrl: site.podcast.appleUrl || '/podcast.xml',
    spotifyUrl: site.podcast.spotifyUrl || '/podcast.xml',
    contactEmail: site.brand.contactEmail || null,
    analyticsId: site.analyticsId || null,
  };
}
