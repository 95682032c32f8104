// The consent-aware analytics shim must queue commands the way gtag.js reads them; podcast
// downloads are told apart by app, and the services that fetch every episode are bots.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyConsent } from '#lib/analytics.ts';
import { DEFAULT_CONSENT } from '#lib/consent.ts';
import { podcastApp } from '#server/analytics/podcast-apps.ts';

describe('applyConsent', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('queues Arguments objects (gtag.js ignores Arrays), consent default before the update', () => {
    const appended: { src: string }[] = [];
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', { createElement: () => ({}), head: { appendChild: (el: { src: string }) => appended.push(el) } });

    applyConsent('G-TEST', { ...DEFAULT_CONSENT, analytics: true, consentGiven: true });

    const queue = (globalThis as unknown as { window: { dataLayer: unknown[] } }).window.dataLayer;
    expect(queue.map((entry) => Object.prototype.toString.call(entry))).toEqual(['[object Arguments]', '[object Arguments]']);
    const [first, second] = queue.map((entry) => Array.from(entry as ArrayLike<unknown>));
    expect(first.slice(0, 2)).toEqual(['consent', 'default']);
    expect(first[2]).toMatchObject({ analytics_storage: 'denied', functionality_storage: 'granted', security_storage: 'granted' });
    expect(second.slice(0, 2)).toEqual(['consent', 'update']);
    expect(second[2]).toMatchObject({ analytics_storage: 'granted', ad_storage: 'denied' });
    expect(appended).toHaveLength(1);
    expect(appended[0].src).toContain('id=G-TEST');
  });
});

describe('podcastApp', () => {
  it("names listeners' apps, Podbean's included, and lists prefetchers as bots", () => {
    expect(podcastApp('Podbean/Android App 10.1.2 (http://podbean.com),6d4c4ae2fa8c1e1a')).toBe('Podbean');
    expect(podcastApp('Overcast/3.0 (+http://overcast.fm/; iOS podcast app)')).toBe('Overcast');
    expect(podcastApp('PodbeanFeedReader/1.0')).toBe('Bot');
    expect(podcastApp('Podbean Importer')).toBe('Bot');
    expect(podcastApp('Overcast/1.0 Podcast Sync (123 subscribers; feed-id=42; +http://overcast.fm/)')).toBe('Bot');
  });
});
