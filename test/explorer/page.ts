/**
 * Helpers of the explorer browser tests: a real server on port 0, waiting for the page to
 * settle, reading the plot's canvas, saving screenshots under artifacts/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { defaultServer } from '../helpers/default-app.js';

/** Repository root. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));
/** Where screenshots go (git-ignored: artifacts/). */
export const SCREENSHOT_DIR = join(REPO_ROOT, 'artifacts', 'screenshots');

/** Starts the real app on 127.0.0.1, port 0; returns it and its base URL. */
export async function startServer(storePath: string): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp({ storePath });
  return { app, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

/** Waits until the page has finished rendering the current state (body[data-status=ready]). */
export async function settled(page: Page): Promise<void> {
  await page.waitForSelector('body[data-status=ready]', { state: 'attached' });
}

/** Opens `path` on the server and waits for the page to settle. */
export async function open(page: Page, base: string, path: string): Promise<void> {
  await page.goto(base + path);
  await settled(page);
}

/** Pixels of the first canvas in `selector`: non-transparent ones, and ones close to an RGB colour. */
export async function canvasPixels(page: Page, selector: string, rgb: [number, number, number]): Promise<{ opaque: number; colour: number; total: number }> {
  return page.evaluate(([sel, [r, g, b]]) => {
    const canvas = document.querySelector(`${sel} canvas`) as HTMLCanvasElement | null;
    if (!canvas) return { opaque: 0, colour: 0, total: 0 };
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let opaque = 0;
    let colour = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 0) opaque++;
      if (data[i + 3] > 200 && Math.abs(data[i] - r) < 20 && Math.abs(data[i + 1] - g) < 20 && Math.abs(data[i + 2] - b) < 20) colour++;
    }
    return { opaque, colour, total: data.length / 4 };
  }, [selector, rgb] as const);
}

/** Text of every cell of column `index` (0-based; column 0 is the row header) of a table body (the triage rows of related events left out). */
export async function column(page: Page, table: string, index: number): Promise<string[]> {
  return page.$$eval(`${table} tbody tr:not(.related-events)`, (rows, i) => rows.map((tr) => (tr.children[i] as HTMLElement).textContent ?? ''), index);
}

/** Saves a full-page screenshot as artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Collects the page's uncaught errors (`pageerror`) and console errors from now on; the
 * returned array fills as they happen. Chromium's "Failed to load resource" line for a 404 of
 * /triage is not one: the front door asks for the triage queue and falls back without it (a
 * server or store that has none).
 */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (/status of 404/.test(message.text()) && /\/triage(\?|$)/.test(message.location().url)) return;
    errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/** Values (`data-value`) of the bars of the bar chart `figure.bars[data-chart=<key>]`. */
export async function barValues(page: Page, key: string): Promise<number[]> {
  return page.$$eval(`figure.bars[data-chart="${key}"] tbody tr`, (rows) => rows.map((tr) => Number((tr as HTMLElement).dataset.value)));
}

/** The real server over a store and one browser page with its collected errors (collectErrors). */
export interface BrowserSession { app: FastifyInstance; base: string; page: Page; errors: string[] }

/**
 * Opens a BrowserSession before the suite's tests and closes it after them, then runs `cleanup`
 * (e.g. removing the store). The server: `'default'`, the process's shared server on the default
 * store (test/helpers/default-app.ts; left open), or a server of its own over the store at
 * `storePath()` (closed). Its fields are set once the suite's beforeAll has run.
 */
export function browserSession(storePath: 'default' | (() => string | Promise<string>), cleanup?: () => Promise<void>): BrowserSession {
  const session = {} as BrowserSession;
  let browser: TestBrowser | undefined;
  beforeAll(async () => {
    Object.assign(session, storePath === 'default' ? await defaultServer() : await startServer(await storePath()));
    browser = await launchBrowser();
    session.page = await browser.newPage();
    session.errors = collectErrors(session.page);
  });
  afterAll(async () => {
    await browser?.close();
    if (storePath !== 'default') await session.app?.close();
    await cleanup?.();
  });
  return session;
}
