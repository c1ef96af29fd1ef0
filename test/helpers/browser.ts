/**
 * Headless Chromium for end-to-end tests, driven by playwright-core (no bundled browser:
 * the system's Debian `chromium` at /usr/bin/chromium, which CI installs when missing).
 *
 * Every launch uses a fresh user-data-dir in os.tmpdir(), removed on close, and flags that
 * keep the browser off the network except for the pages the test opens.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Path of the system Chromium; `CHROMIUM_PATH` overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Command-line flags of every launch. */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** True when the Chromium executable exists (tests skip with a message otherwise). */
export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** A running browser: its context, and `close()` which also removes the user-data-dir. */
export interface TestBrowser {
  context: BrowserContext;
  /** Opens a new page (tab) in the context. */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium with a fresh profile.
 * @param viewport page size in CSS pixels (default 1280 x 900)
 * @throws Error when Chromium cannot start (check `chromiumAvailable()` first)
 */
export async function launchBrowser(viewport = { width: 1280, height: 900 }): Promise<TestBrowser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
  });
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
