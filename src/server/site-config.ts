// Public settings the pages need, from the run-time environment (never secrets).
import { env } from './env.ts';

export interface SiteConfig {
  siteUrl: string;
  bookingUrl: string;
  applePodcastsUrl: string;
  spotifyUrl: string;
  /** CONTACT_EMAIL; null when unset (no address is made up from the host). */
  contactEmail: string | null;
  analyticsId: string | null;
}

export function siteConfig(): SiteConfig {
  const e = env();
  return {
    siteUrl: e.SITE_URL,
    // Without a booking page configured, 'Book' links go to the site's own sign-up card.
    bookingUrl: e.BOOKING_URL ?? '/work-with-me#get-started',
    // Without directory links, the podcast buttons offer the RSS feed any app can follow.
    applePodcastsUrl: e.APPLE_PODCASTS_URL ?? '/podcast.xml',
    spotifyUrl: e.SPOTIFY_URL ?? '/podcast.xml',
    contactEmail: e.CONTACT_EMAIL ?? null,
    analyticsId: e.ANALYTICS_ID ?? null,
  };
}
