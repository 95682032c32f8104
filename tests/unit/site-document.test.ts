// The site document's first version and its text rules, without a server.
import { describe, expect, it } from 'vitest';
import { sanitizePolicyHtml } from '#server/html/sanitize.ts';
import { defaultSiteDocument } from '#server/site/defaults.ts';
import { pagesShowing } from '#server/site/pages.ts';
import { readStoredSite } from '#server/site/upgrade.ts';
import { SiteDocumentSchema } from '#shared/schemas/site.ts';
import { emphasisParts, formatAmount } from '#shared/site-text.ts';

const seed = { PODCAST_LOCKED: false } as Parameters<typeof defaultSiteDocument>[0];

describe('the default document', () => {
  it('passes its own schema unchanged, and its privacy policy is already what sanitising keeps', () => {
    const doc = defaultSiteDocument(seed);
    expect(SiteDocumentSchema.parse(doc)).toEqual(doc);
    for (const s of doc.privacyPolicy.sections) expect(sanitizePolicyHtml(s.html), s.id).toBe(s.html);
  });

  it('takes the old environment variables as its first values', () => {
    const doc = defaultSiteDocument({ ...seed, CONTACT_EMAIL: 'me@example.com', BOOKING_URL: 'https://cal.example.com/me', PODCAST_CATEGORY: 'Technology', ANALYTICS_ID: 'G-1' });
    expect(doc).toMatchObject({ bookingUrl: 'https://cal.example.com/me', analyticsId: 'G-1', brand: { contactEmail: 'me@example.com' }, podcast: { category: 'Technology' } });
    expect(doc.privacyPolicy.sections.at(-1)!.html).toContain('<a href="mailto:me@example.com">me@example.com</a>');
  });
});

describe('text rules', () => {
  it('highlights the *starred* words of a title', () => {
    expect(emphasisParts('Build the systems that *scale*.')).toEqual([
      { text: 'Build the systems that ', emphasis: false },
      { text: 'scale', emphasis: true },
      { text: '.', emphasis: false },
    ]);
  });

  it('shows whole dollars without cents, others with', () => {
    expect(formatAmount(450000)).toBe('$4,500');
    expect(formatAmount(4950)).toBe('$49.50');
  });
});

describe('which pages a publish refreshes', () => {
  const before = defaultSiteDocument(seed);
  const pages = (change: (d: typeof before) => void) => {
    const after = structuredClone(before);
    change(after);
    return pagesShowing(before, after);
  };
  it('a package price: /work-with-me only; the brand: every page; nothing changed: none', () => {
    const scope = pages((d) => (d.workWithMe.packageTabs[0].packages[0].price = 1));
    expect(typeof scope === 'object' && scope !== null && ['/work-with-me', '/', '/blog'].map((k) => scope.pages(k))).toEqual([true, false, false]);
    expect(pages((d) => (d.brand.name = 'Someone Else'))).toBe('all');
    expect(pages(() => undefined)).toBeNull();
  });

  it("the newsletter's name: every page (each page's head names its feed)", () => {
    expect(pages((d) => (d.newsletter.name = 'The Weekly Build'))).toBe('all');
  });
});

describe('a document stored by an earlier version', () => {
  it('no longer promises a statistics secret kept in a file: the old default sentence reads as the one that holds now, the rest as the owner left it', () => {
    const doc = defaultSiteDocument(seed);
    const section = doc.privacyPolicy.sections.find((s) => s.html.includes('The secret is kept'))!;
    const current =
      'The secret is kept in the server’s memory only, never on disk; when the day ends (or the server restarts) it is replaced and the old one forgotten, after which the hash can no longer be linked to anyone.';
    const old =
      'The secret is kept in the server’s memory and in a file on the server that only the site can read, never in a backup, so that a restart does not count you twice; when the day ends it is replaced, and the old one deleted, after which the hash can no longer be linked to anyone.';
    expect(section.html).toContain(current);
    section.html = `${section.html.replace(current, old)}<p>The owner’s own words.</p>`;
    const read = readStoredSite(JSON.stringify(doc), () => defaultSiteDocument(seed));
    const html = read.doc.privacyPolicy.sections.map((s) => s.html).join('');
    expect(html).toContain(current);
    expect(html).not.toContain('in a file on the server');
    expect(html).toContain('The owner’s own words.');
    expect(read.filled).toEqual([]);
  });
});
