// The admin lists at size, for `npm run bench`: 50,000 subscribers, 20,000 comments, 10,000
// orders and 3,000 posts written straight into a fresh site's database; then each list call's
// p50/p99, and the newsletter screen timed in Chromium: from navigation to its first rows and
// stats, and from a search typed to its results. Prints the figures (never asserts them).
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { chromium } from '@playwright/test';

export const SUBSCRIBERS = 50_000;
export const COMMENTS = 20_000;
export const ORDERS = 10_000;
export const POSTS = 3_000;

/** The few subscribers a new newsletter has, for the screen's figures before the list grows. */
export const FEW = 50;

/** Subscribers reader{from} to reader{to - 1}, one a minute, reader0 the newest. */
export function seedSubscribers(dbFile: string, from: number, to: number): void {
  const db = new Database(dbFile);
  db.pragma('busy_timeout = 10000');
  const now = Date.now();
  const subscriber = db.prepare('insert into newsletter_subscribers (email, name, convert_kit_id, is_active, subscribed_at) values (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = from; i < to; i++) subscriber.run(`reader${i}@bulk.example`, `Reader ${i}`, i % 4 === 0 ? `kit_${i}` : null, i % 5 === 0 ? 0 : 1, now - i * 60_000);
  })();
  db.close();
}

/** Fills the lists (the subscribers after the first FEW); the site must be prepared (migrated) and may be running. */
export function seedAdminLists(dbFile: string): void {
  seedSubscribers(dbFile, FEW, SUBSCRIBERS);
  const db = new Database(dbFile);
  db.pragma('busy_timeout = 10000');
  const now = Date.now();
  const STATUSES = ['succeeded', 'succeeded', 'pending', 'failed', 'refunded'] as const;
  db.transaction(() => {
    // The posts are the bench admin's (the only account on the fresh site).
    const author = (db.prepare('select id from users limit 1').get() as { id: string }).id;
    const post = db.prepare('insert into blog_posts (title, slug, excerpt, content, category, is_published, author_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < POSTS; i++) {
      const at = now - i * 3_600_000;
      post.run(`Operations note ${i}`, `operations-note-${i}`, `What week ${i} taught about handovers.`, `<p>Note ${i}.</p>`, 'Systems', i % 3 === 0 ? 0 : 1, author, at, at);
    }
    const postId = (db.prepare('select id from blog_posts order by id desc limit 1').get() as { id: number }).id;
    const comment = db.prepare('insert into comments (content, author_name, author_email, blog_post_id, is_approved, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < COMMENTS; i++) comment.run(`Comment number ${i}`, `Commenter ${i}`, `c${i}@bulk.example`, postId, i % 4 === 0 ? 0 : 1, now - i * 1000, now - i * 1000);
    const order = db.prepare('insert into orders (product_name, amount, status, payment_intent_id, customer_email, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < ORDERS; i++)
      order.run(i % 2 ? 'Strategy Session' : 'Leadership Playbook', 1000 + (i % 7) * 500, STATUSES[i % 5], `pi_bench_${i}`, `buyer${i}@bulk.example`, now - i * 60_000, now - i * 60_000);
  })();
  db.close();
}

/** The list calls the admin screens make (first page, a search, a deep page), for the bench to time. */
export function adminListCalls(since: string): [label: string, path: string][] {
  const s = encodeURIComponent(since);
  return [
    ['newsletter: first page with stats', `/api/newsletter/subscribers?page=1&pageSize=50&since=${s}`],
    ['newsletter: search as typed (q=reader12)', `/api/newsletter/subscribers?q=reader12&page=1&pageSize=50&since=${s}`],
    ['newsletter: page 500', `/api/newsletter/subscribers?page=500&pageSize=50&since=${s}`],
    ['comments: pending, first page', '/api/admin/comments?status=pending&page=1&pageSize=50'],
    ['comments: approved, first page', '/api/admin/comments?status=approved&page=1&pageSize=50'],
    ['comments: approved, page 200', '/api/admin/comments?status=approved&page=200&pageSize=50'],
    ['orders: first page with figures', '/api/admin/orders?page=1&pageSize=50'],
    ['orders: search (q=buyer42)', '/api/admin/orders?q=buyer42&page=1&pageSize=50'],
    ['orders: page 150', '/api/admin/orders?page=150&pageSize=50'],
    ['users: first page', '/api/admin/users?page=1&pageSize=50'],
    ['posts: first page with stats', '/api/blog-posts?status=all&page=1&pageSize=50'],
    ['posts: drafts, search (q=note 12)', '/api/blog-posts?status=draft&q=note%2012&page=1&pageSize=50'],
  ];
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p));

declare global {
  interface Window {
    /** performance.now() when the newsletter screen first showed rows and a total. */
    __firstRowsAt?: number;
  }
}

/**
 * The newsletter screen in Chromium, `runs` times: ms from navigation start to the first rows
 * with the stat cards filled, and from a search typed (one keystroke's input event) to its
 * results on screen. Answers both lists, sorted; empty when there is no Chromium.
 */
export async function timeNewsletterScreen(base: string, cookie: string, runs: number): Promise<{ firstRows: number[]; search: number[] }> {
  if (!CHROMIUM) return { firstRows: [], search: [] };
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const context = await browser.newContext();
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const at = pair.indexOf('=');
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: base };
      }),
    );
    await context.addInitScript(() => {
      new MutationObserver((_, observer) => {
        const total = document.querySelector('[aria-label="Subscriber statistics"] > div')?.textContent ?? '';
        if (document.querySelector('tbody tr') && /\d/.test(total)) {
          window.__firstRowsAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const page = await context.newPage();
    const firstRows: number[] = [];
    const search: number[] = [];
    // One visit first, so the figures are for an admin who has used the admin before (scripts cached).
    for (let i = 0; i <= runs; i++) {
      await page.goto(`${base}/admin/newsletter`);
      await page.waitForFunction(() => window.__firstRowsAt !== undefined, undefined, { timeout: 30_000 });
      const shown = await page.evaluate(() => window.__firstRowsAt!);
      // reader10 to reader19: one row among the first FEW, many pages among 50,000.
      const term = `reader1${i % 10}`;
      // Timed in the page: from the search box's input event to every row shown matching it.
      const results = page.evaluate(
        (q) =>
          new Promise<number>((resolve) => {
            let typedAt = 0;
            document.addEventListener('input', () => (typedAt = performance.now()), { capture: true, once: true });
            new MutationObserver((_, observer) => {
              const rows = [...document.querySelectorAll('tbody tr')];
              if (!typedAt || rows.length === 0 || !rows.every((r) => r.textContent?.includes(q))) return;
              observer.disconnect();
              resolve(performance.now() - typedAt);
            }).observe(document.body, { childList: true, subtree: true, characterData: true });
          }),
        term,
      );
      await page.locator('#subscriber-search').fill(term);
      const took = await results;
      if (i > 0) {
        firstRows.push(shown);
        search.push(took);
      }
    }
    return { firstRows: firstRows.sort((a, b) => a - b), search: search.sort((a, b) => a - b) };
  } finally {
    await browser.close();
  }
}
