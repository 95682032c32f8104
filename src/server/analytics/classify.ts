// What a page view says about where it came from and on what: the referring site (its host only),
// the campaign tags, the device (from the screen's width) and the browser and system (from the
// user agent, which is read here and never kept).
import Bowser from 'bowser';
import { isbot } from 'isbot';
import type { HeaderReader } from '#server/http/node-request.ts';

/** The referring site's host without 'www.', or '' for none (or this site itself). */
export function referrerHost(referrer: string, siteHost: string): string {
  if (!referrer || !URL.canParse(referrer)) return '';
  const url = new URL(referrer);
  if (!/^https?:$/.test(url.protocol)) return '';
  const host = url.hostname.replace(/^www\./, '').toLowerCase();
  return host === siteHost.replace(/^www\./, '').toLowerCase() ? '' : host.slice(0, 253);
}

/** A campaign tag as the link gave it, when it looks like one: short, plain, and no address in it (a tag is kept for good). */
function tag(url: URL, name: string): string {
  const value = (url.searchParams.get(name) ?? '').trim();
  return value.length <= 60 && /^[\w .+-]*$/.test(value) ? value : '';
}

export function campaignOf(url: URL) {
  return { utmSource: tag(url, 'utm_source') || tag(url, 'ref'), utmMedium: tag(url, 'utm_medium'), utmCampaign: tag(url, 'utm_campaign') };
}

/** Desktop, Tablet or Mobile from the viewport's width (as Plausible does). */
export const deviceOf = (width: number) => (width < 576 ? 'Mobile' : width < 992 ? 'Tablet' : 'Desktop');

/**
 * What a user agent says: a bot or not, the browser and the system. Reading it costs tens of
 * microseconds (isbot's pattern, Bowser's parser) and a few hundred agents make up most
 * traffic, so answers are remembered in memory (never on disk), a few thousand at most.
 */
interface AgentFacts {
  bot: boolean;
  browser: string;
  os: string;
}
const AGENTS_KEPT = 5_000;
const agents = new Map<string, AgentFacts>();

export function agentFacts(userAgent: string): AgentFacts {
  let facts = agents.get(userAgent);
  if (!facts) {
    const bot = isbot(userAgent);
    const parsed = bot ? null : Bowser.parse(userAgent);
    facts = { bot, browser: parsed?.browser.name ?? 'Unknown', os: parsed?.os.name ?? 'Unknown' };
    if (agents.size >= AGENTS_KEPT) agents.clear();
    agents.set(userAgent, facts);
  }
  return facts;
}

export function browserOf(userAgent: string): { browser: string; os: string } {
  const { browser, os } = agentFacts(userAgent);
  return { browser, os };
}

/** Prefetches and prerenders announce themselves; they are not views. */
export const isPrefetch = (headers: HeaderReader) => /prefetch|prerender/i.test(`${headers.get('sec-purpose') ?? ''} ${headers.get('purpose') ?? ''} ${headers.get('x-moz') ?? ''}`);
