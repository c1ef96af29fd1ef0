/**
 * Issue 36, mobile and accessibility, on the embedded default store in headless Chromium against
 * the real server: at 1400 x 900 and at 390 x 844 (a phone), the front door, a pair's series, its
 * Reports tab (a report expanded), a report page (/reports/{id}, HTML), the queue filtered to two
 * products and their "My products" page do not scroll sideways
 * (the document is no wider than the viewport: wide tables scroll inside their own box), and
 * axe-core (the npm package's axe.min.js, evaluated in the page) finds no violation. Screenshots
 * of each go to artifacts/screenshots/a11y-<page>-<width>.png (docs/screenshots/ holds copies).
 * Skips when the store or Chromium is absent.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { hasDefaultStore } from '../helpers/default-store.js';
import { collectErrors, open, screenshot } from './page.js';
import { defaultServer } from '../helpers/default-app.js';

const hasStore = hasDefaultStore('explorer mobile and accessibility tests');
const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn('explorer mobile and accessibility tests skipped: no Chromium (install Debian "chromium" or set CHROMIUM_PATH)');

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PAIR = '/?vaccine=ROTAVIRUS&pair_vaccine=ROTAVIRUS+(ROTASHIELD)&pair_event=Intussusception';
/** The pages: name, path, whether it is the explorer (waits for it to settle), what to do before checking. */
const PAGES: Array<{ name: string; path: string; explorer: boolean; before?: (page: Page) => Promise<void> }> = [
  { name: 'front', path: '/', explorer: true },
  { name: 'series', path: PAIR, explorer: true, before: (page) => page.click('#series-view details summary') },
  { name: 'reports', path: `${PAIR}&view=reports`, explorer: true, before: (page) => page.click('#listing details.report summary') },
  { name: 'report', path: '/reports/118916?format=html', explorer: false },
  // The sponsor's view (issue 46): the queue filtered to two products, and their "My products" page.
  { name: 'sponsor', path: '/?product=VARICELLA+(VARIVAX)&product=MMR', explorer: true },
  { name: 'products', path: '/?product=VARICELLA+(VARIVAX)&product=MMR&view=products', explorer: true },
];
const VIEWPORTS = [{ width: 1400, height: 900 }, { width: 390, height: 844 }];

/** axe-core's violations on the page: `id (impact): targets`. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run();
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

/** The document's width against the viewport's, and the elements reaching past its right edge outside a scrolling box. */
async function sideways(page: Page): Promise<{ scrollWidth: number; innerWidth: number; past: string[] }> {
  return page.evaluate(() => {
    const scrolls = (e: Element): boolean => {
      for (let p = e.parentElement; p; p = p.parentElement) if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true;
      return false;
    };
    const past = Array.from(document.querySelectorAll('body *'))
      .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > window.innerWidth + 1 && !scrolls(e))
      .slice(0, 5).map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ').join('.')}` : ''}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, past };
  });
}

describe.skipIf(!hasStore || !hasChromium)('explorer and report page: no sideways scroll at 390 px, axe-core finds no violation', () => {
  let base: string;
  const browsers: TestBrowser[] = [];
  const errors: string[][] = [];

  beforeAll(async () => {
    ({ base } = await defaultServer());
  });
  afterAll(async () => {
    for (const b of browsers) await b.close();
  });

  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width} x ${viewport.height}`, () => {
      let page: Page;
      beforeAll(async () => {
        const browser = await launchBrowser(viewport);
        browsers.push(browser);
        page = await browser.newPage();
        // The first front door asks for many answers (the queue, the types, each type's emerging pairs): slow on a loaded machine.
        page.setDefaultTimeout(120_000);
        errors.push(collectErrors(page));
      });

      for (const spec of PAGES) {
        it(`${spec.name}: no sideways scroll, no axe-core violation`, async () => {
          if (spec.explorer) await open(page, base, spec.path);
          else await page.goto(base + spec.path);
          await spec.before?.(page);
          const width = await sideways(page);
          expect(width.past).toEqual([]);
          expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
          expect(await axeViolations(page)).toEqual([]);
          await screenshot(page, `a11y-${spec.name}-${viewport.width}`);
        }, 120_000);
      }
    });
  }

  it('had no page errors and no console errors', () => {
    expect(errors.flat()).toEqual([]);
  });
});
