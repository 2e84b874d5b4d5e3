import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { pageUrl } from '../../src/web/paths.js';
import { hasChromium, launchChromium } from './chromium.js';
import { PASSWORD, TestService, type TestWorkspace } from './harness.js';

/** A test file's service and Chromium, open between its beforeAll and afterAll. */
export interface ServiceAndBrowser {
  readonly t: TestService;
  readonly browser: Browser;
  /**
   * A new workspace whose owner is signed in on a new page of their own, which the sign-in form sends on to the
   * workspace page at `path` (a path of AREAS, such as 'team') when given.
   */
  signedInOwner(path?: string): Promise<{ ws: TestWorkspace; userId: string; page: Page }>;
}

/**
 * Starts a TestService (with `options`) and a Chromium before the file's tests and closes both after them; on a
 * machine without Chromium neither starts (the browser tests skip themselves). Call it at the top of the file, before
 * any beforeAll of its own that seeds the service.
 */
export function serviceAndBrowser(options: Parameters<typeof TestService.start>[0] = {}): ServiceAndBrowser {
  let service: TestService | undefined;
  let chromium: Browser | undefined;
  beforeAll(async () => {
    if (!hasChromium) return;
    service = await TestService.start(options);
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.close();
  });
  return {
    get t() {
      if (service === undefined) throw new Error('the service is open only while the tests of a file with Chromium run');
      return service;
    },
    get browser() {
      if (chromium === undefined) throw new Error('the browser is open only while the tests of a file with Chromium run');
      return chromium;
    },
    async signedInOwner(path) {
      const ws = await this.t.workspace();
      const email = `owner-${ws.workspaceId}@acme.example`;
      const userId = await this.t.user(ws.workspaceId, email, 'owner');
      const page = await this.browser.newPage();
      await signIn(page, this.t.baseUrl, email, path === undefined ? undefined : pageUrl(ws.workspaceId, path));
      return { ws, userId, page };
    },
  };
}

/**
 * Signs `page` in as `email` (a user made by `t.user`, who has PASSWORD) through the sign-in form and waits until the
 * form sends it on: to `next` when given, else where the dashboard sends a person who just signed in.
 */
export async function signIn(page: Page, baseUrl: string, email: string, next?: string): Promise<void> {
  await page.goto(`${baseUrl}/signin${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}
