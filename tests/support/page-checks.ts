// Checks the browser tests share: island hydration, axe, and the page's JavaScript weight.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { gzipSync } from 'node:zlib';

/**
 * Waits until the Astro island holding `locator` has hydrated (Astro drops its `ssr` attribute):
 * scrolled into view (client:visible) and the pointer moved over it (client:interaction).
 */
export async function hydrated(locator: Locator): Promise<void> {
  await locator.first().scrollIntoViewIfNeeded();
  await locator.first().dispatchEvent('pointerover');
  await expect(locator.first().locator('xpath=ancestor::astro-island[1]')).not.toHaveAttribute('ssr');
}

/** Fails with a readable list when axe finds a serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page, include?: string): Promise<void> {
  // Contrast is judged on what is on screen: a transition under way (the floating navigation
  // fading in after a scroll) would be measured half-transparent.
  // A scroll just made (scrollIntoViewIfNeeded) fires its listeners on the next frames.
  await page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
  });
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const { violations } = await builder.analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(serious, serious.join('\n')).toEqual([]);
}

/**
 * Gzipped bytes of all JavaScript the page runs: every script file it loaded (islands included,
 * after scrolling to the end so `client:visible` ones load too) plus inline scripts.
 */
export async function pageJsGzipBytes(page: Page, path: string): Promise<{ total: number; files: Record<string, number> }> {
  const files: Record<string, number> = {};
  const pending: Promise<void>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    pending.push(
      res.body().then(
        (body) => {
          files[new URL(res.url()).pathname] = gzipSync(body, { level: 9 }).length;
        },
        () => undefined,
      ),
    );
  });
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  await Promise.all(pending);
  const inline = await page.evaluate(() =>
    [...document.querySelectorAll('script:not([src])')]
      .filter((s) => !s.getAttribute('type') || s.getAttribute('type') === 'module' || s.getAttribute('type') === 'text/javascript')
      .map((s) => s.textContent ?? ''),
  );
  files['(inline)'] = gzipSync(inline.join('\n'), { level: 9 }).length;
  return { total: Object.values(files).reduce((a, b) => a + b, 0), files };
}

/** The spec's budget: at most 70 KB of gzipped JavaScript per page. */
export const JS_BUDGET_BYTES = 70 * 1024;
