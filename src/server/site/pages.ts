// Which cached pages show which part of the site document, so a publish refreshes only those.
import type { ContentScope } from '#server/http/pages/page-cache.ts';
import type { SiteDocument } from '#shared/schemas/site.ts';

/** Page-cache keys (paths with their kept query) each part shows on; `true` is every page (the layout shows it). */
const SHOWN_ON: Record<string, RegExp | true> = {
  brand: true,
  'podcast.title': true,
  // Every page's head links the newsletter's feed by its name.
  'newsletter.name': true,
  analyticsId: true,
  home: /^\/(?:$|\?)/,
  workWithMe: /^\/work-with-me$/,
  newsletter: /^\/(?:$|\?|newsletter$|work-with-me$)/,
  podcast: /^\/podcast(?:[/?]|\.xml$|$)/,
  privacyPolicy: /^\/privacy-policy$/,
  bookingUrl: /^\/(?:$|\?|work-with-me$|newsletter$|podcast$)/,
};

/** The top-level parts of the document two versions differ in ('brand', 'home.hero', ...). */
export function changedParts(a: SiteDocument | null, b: SiteDocument): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: string, depth: number) => {
    if (JSON.stringify(x) === JSON.stringify(y)) return;
    if (depth < 2 && x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x)) {
      for (const key of Object.keys(y)) walk((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key], path ? `${path}.${key}` : key, depth + 1);
      return;
    }
    out.push(path);
  };
  walk(a, b, '', 0);
  return out;
}

/** The pages a change from `before` to `after` shows on, or null when it shows on none. */
export function pagesShowing(before: SiteDocument, after: SiteDocument): ContentScope | null {
  const patterns: RegExp[] = [];
  for (const part of changedParts(before, after)) {
    // The most specific entry naming the part ('podcast.title' before 'podcast').
    const key = Object.keys(SHOWN_ON)
      .filter((k) => part === k || part.startsWith(`${k}.`))
      .sort((x, y) => y.length - x.length)[0];
    const shown = key ? SHOWN_ON[key] : true;
    if (shown === true) return 'all';
    patterns.push(shown!);
  }
  return patterns.length ? { pages: (key) => patterns.some((p) => p.test(key)) } : null;
}
