import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../src/exports/artifacts.js';
import { AREAS } from '../../src/web/areas.js';
import { pageUrl } from '../../src/web/paths.js';
import { Receiver } from '../publishing/receiver.js';
import { accessibilityProblems } from '../support/axe.js';
import { serviceAndBrowser, signIn } from '../support/browserSession.js';
import { hasChromium } from '../support/chromium.js';
import { seedEveryArea, type SeededWorkspace } from './walkSeed.js';

/** Where the walk leaves a full-page screenshot of every page at every width (kept out of git). */
const SCREENSHOTS = join(ROOT, 'test-artifacts', 'screenshots');
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

interface Stop {
  /** The file name part of its screenshots. */
  slug: string;
  path: string;
  /** The status the page must answer. */
  status: number;
  /** Fields posted to the path as a form would post them (the page's CSRF token added), instead of a visit. */
  form?: Record<string, string>;
}

const fixture = serviceAndBrowser({ outbound: { allowPrivateAddresses: true }, env: { TRUST_PROXY: 'loopback' } });
let receiver: Receiver;
let seeded: SeededWorkspace;

beforeAll(async () => {
  if (!hasChromium) return;
  receiver = await Receiver.start({ clock: () => fixture.t.clock.now() });
  seeded = await seedEveryArea(fixture.t, receiver);
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);
afterAll(async () => {
  await receiver?.close();
});

/** Every page of the dashboard's map, the first article's own page, and the pages that answer a mistake. */
async function stops(): Promise<Stop[]> {
  const workspaceId = seeded.ws.workspaceId;
  const mapped = AREAS.flatMap((area) => area.pages.map((page) => ({ slug: page.path === '' ? area.id : page.path.replaceAll('/', '-'), path: pageUrl(workspaceId, page.path), status: 200 })));
  const listed = await fixture.t.rest(seeded.ws.key, 'GET', '/api/v1/content');
  const firstArticle = (listed.body.data as { articles: Array<{ id: string }> }).articles[0];
  const article = firstArticle === undefined ? [] : [{ slug: 'content-article', path: pageUrl(workspaceId, `content/articles/${firstArticle.id}`), status: 200 }];
  return [
    ...mapped,

    ...article,
    { slug: 'not-found', path: pageUrl(workspaceId, 'no-such-page'), status: 404 },
    // An operation's refusal of a form, shown on the dashboard's error page with the operation's status.
    { slug: 'error', path: pageUrl(workspaceId, 'do/add_query'), status: 400, form: { text: '' } },
  ];
}

/** Posts `fields` from the page in the browser, as a form of the page would, and answers the status of the page it leads to. */
async function postForm(page: Page, path: string, fields: Record<string, string>): Promise<number> {
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === path);
  // Built in the page (the CSP keeps scripts out of the page itself; this runs through the DevTools protocol).
  await page.evaluate(`{
    const form = document.createElement('form');
    form.method = 'post';
    form.action = ${JSON.stringify(path)};
    const fields = { ...${JSON.stringify(fields)}, _csrf: document.querySelector('input[name="_csrf"]')?.value ?? '' };
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  }`);
  const status = (await answered).status();
  await page.waitForURL((url) => url.pathname === path, { waitUntil: 'load' });
  return status;
}

/** Visits one page at one width and answers what is wrong with it (nothing: an empty list); leaves its screenshot. */
async function visit(page: Page, role: string, width: (typeof WIDTHS)[number], stop: Stop): Promise<string[]> {
  const problems: string[] = [];
  const status = stop.form === undefined ? ((await page.goto(`${fixture.t.baseUrl}${stop.path}`))?.status() ?? 0) : await postForm(page, stop.path, stop.form);
  if (status !== stop.status) problems.push(`answered ${status}, not ${stop.status}`);
  const headings = await page.locator('h1').allTextContents();
  if (headings.length !== 1 || headings[0]!.trim() === '') problems.push(`has ${headings.length} h1 (${headings.join(' | ')}), not one with text`);
  if (width.name === 'phone') {
    const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>('({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })');
    if (scrollWidth > innerWidth + 1) problems.push(`overflows sideways: ${scrollWidth} px wide in a ${innerWidth} px window`);
  }
  await page.screenshot({ path: join(SCREENSHOTS, `${role}-${width.viewport.width}-${stop.slug}.png`), fullPage: true });
  problems.push(...(await accessibilityProblems(page)));
  return problems;
}

describe.skipIf(!hasChromium)('every dashboard page in a real browser', () => {
  for (const role of ['owner', 'member'] as const) {
    it(`${role}: every page answers with its heading, fits a phone, and has no serious accessibility problem`, async () => {
      const context = await fixture.browser.newContext();
      const page = await context.newPage();
      await signIn(page, fixture.t.baseUrl, role === 'owner' ? seeded.ownerEmail : seeded.memberEmail);
      const failures: string[] = [];
      for (const width of WIDTHS) {
        await page.setViewportSize(width.viewport);
        for (const stop of await stops()) {
          for (const problem of await visit(page, role, width, stop)) failures.push(`${role} ${width.viewport.width}px ${stop.path}: ${problem}`);
        }
      }
      await context.close();
      expect(failures, `pages that failed:\n${failures.join('\n')}`).toEqual([]);
    }, 600_000);
  }
});
