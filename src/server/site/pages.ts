// Which cached pages show which part of the site document, so a publish refreshes only those.
import type { ContentScope } from '#server/http/page-cache.ts';
import type { SiteDocument } from '#shared/schemas/site.ts';

/** Page-cache keys (paths with their kept query) each part shows on; `true` is every page (the layout shows it). */
const SHOWN_ON: Record<string, RegExp | true> = {
  brand: true,
  'podcast.title': true,
  analyticsId: true,
  home: /^\/(?:$|\?)/,
  workWithMe: /^\/work-with-me$/,
  newsletter: /^\/(?:$|\?|newsletter$|work-with-me$)/,
  podcast: /^\/podcast(?:[/?]|\.xml$|$)/,
  privacyPolicy: /^\/privacy-policy$/,
  bookingUrl: /^\/(?:$|\?|work-with-me$|newsletter$|podcast$)/,
};

/** The pages a change from `before` to `after` shows on, or null when it shows on none. */
export function pagesShowing(before: SiteDocument, after: SiteDocument): ContentScope | null {
  const patterns: RegExp[] = [];
  const differs = (path: string) => {
    let x: unknown = before;
    let y: unknown = after;
    for (const key of path.split('.')) {
      x = (x as Record<string, unknown>)[key];
      y = (y as Record<string, unknown>)[key];
    }
    return JSON.stringify(x) !== JSON.stringify(y);
  };
  for (const [part, shown] of Object.entries(SHOWN_ON)) {
    if (!differs(part)) continue;
    if (shown === true) return 'all';
    patterns.push(shown);
  }
  return patterns.length ? { pages: (key) => patterns.some((p) => p.test(key)) } : null;
}
