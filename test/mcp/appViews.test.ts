import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, APP_VIEWS, appViewOfTool } from '../../src/mcp/apps.js';
import { siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { googleVsAiReport } from '../../tools/analytics/outputs.js';
import { contentList } from '../../tools/content/outputs.js';
import { registry } from '../../tools/index.js';
import { shareOfVoiceReport, visibilityScoreReport, visibilityTrendReport } from '../../tools/visibility/outputs.js';
import { collect } from '../analytics/support.js';
import { commit } from '../content/calendarSupport.js';
import { hasChromium, launchChromium } from '../support/chromium.js';
import { START_TIME, TestService, type TestWorkspace } from '../support/harness.js';
import { Seeder } from '../visibility/metrics/seed.js';
import { HOST_URL, hostPage } from './appHost.js';

const SCREENSHOTS = join(fileURLToPath(new URL('../../', import.meta.url)), 'test-artifacts', 'screenshots', 'apps');
const PHONE = { width: 360, height: 780 };
const MAX_GZIPPED_BYTES = 200 * 1024;

// The numbers as the views print them for the host's locale, which the test host sets to en-US.
const num = (value: number, digits = 0) => new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(value);
const pct = (value: number, digits = 0) => new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: digits }).format(value);
const rateShown = (rate: { rate: number | null; interval: { low: number; high: number } | null; count: number; of: number }) =>
  rate.rate === null ? [] : [pct(rate.rate, 1), ...(rate.interval ? [`${pct(rate.interval.low)}–${pct(rate.interval.high)}`] : []), `${num(rate.count)} of ${num(rate.of)}`];

describe('the MCP Apps views', () => {
  it('each is a ui:// resource of a read-only operation, with the MCP Apps mime type and no outside domain', () => {
    expect(APP_MIME_TYPE).toBe('text/html;profile=mcp-app');
    expect(APP_VIEWS.map((view) => view.uri)).toEqual([
      'ui://sightline/visibility',
      'ui://sightline/share-of-voice',
      'ui://sightline/google-vs-ai',
      'ui://sightline/content-calendar',
      'ui://sightline/traffic',
      'ui://sightline/backlinks',
    ]);
    for (const view of APP_VIEWS) {
      expect(view.csp).toEqual({ connectDomains: [], resourceDomains: [] });
      for (const toolId of view.toolIds) {
        const operation = registry.get(toolId);
        expect(operation?.method, toolId).toBe('GET');
        expect(operation?.annotations.readOnlyHint).toBe(true);
        expect(appViewOfTool(toolId)).toBe(view);
      }
    }
    expect(appViewOfTool('get_brand')).toBeUndefined();
  });

  it('each is one whole document that loads nothing: no src, href or url() anywhere', () => {
    for (const view of APP_VIEWS) {
      expect(view.html.startsWith('<!doctype html>')).toBe(true);
      expect(view.html).toMatch(/<\/html>\n$/);
      // The SVG namespace is a name, not an address anything fetches.
      expect(view.html.replaceAll("'http://www.w3.org/2000/svg'", '')).not.toMatch(/\ssrc=|\shref=|url\(|@import|https?:\/\//i);
      expect(gzipSync(view.html).length).toBeLessThan(MAX_GZIPPED_BYTES);
    }
  });
});

interface Scenario {
  view: string;
  tool: string;
  args: Record<string, unknown>;
  /** Seeds the workspace for the first call; answers a function that changes what the second call sees. */
  seed(t: TestService, ws: TestWorkspace): Promise<() => Promise<void>>;
  /** Texts of the answer's numbers that the view must show. */
  shown(data: unknown): string[];
}

/** Three checked answers naming the brand or Globex in the last week; the second call sees one more naming both. */
async function seedAnswers(t: TestService, ws: TestWorkspace): Promise<() => Promise<void>> {
  const seed = new Seeder(t, ws);
  const q1 = await seed.query('best analytics tool');
  const q2 = await seed.query('analytics for startups');
  await seed.competitor('Globex', 'https://globex.example');
  await seed.answer('2026-11-16T10:00:00Z', 'chatgpt', q1, 'Acme Analytics is the best. Globex is fine.', ['https://acme.example/blog'], { brand: { label: 'positive', score: 80 } });
  await seed.answer('2026-11-16T10:00:01Z', 'chatgpt', q2, 'Globex leads the market.', ['https://globex.example/pricing']);
  await seed.answer('2026-11-20T10:00:00Z', 'perplexity', q1, 'Try Acme Analytics.');
  t.clock.set(START_TIME);
  return async () => {
    await seed.answer('2026-11-20T11:00:00Z', 'perplexity', q2, 'Acme Analytics and Globex both work.', ['https://acme.example/start']);
    t.clock.set(START_TIME);
  };
}

interface Traffic {
  ours: { pageViews: number; sessions: number; topPages: { path: string; pageViews: number }[] } | null;
  aiCrawlers: { total: number };
}

interface BacklinkStats {
  total: number;
  verified: number;
  discovered: number;
  uniqueDomains: number;
  built: { managed: number };
}

const SCENARIOS: Scenario[] = [
  {
    view: 'visibility',
    tool: 'get_visibility_score',
    args: { days: '7' },
    seed: seedAnswers,
    shown(data) {
      const score = visibilityScoreReport.parse(data);
      expect(score.score).not.toBeNull();
      return [num(score.score!, 1), ...rateShown(score.components.mentionRate), ...rateShown(score.components.citationRate), ...rateShown(score.components.shareOfVoice)];
    },
  },
  {
    view: 'visibility',
    tool: 'get_visibility_trend',
    args: { days: '7' },
    seed: seedAnswers,
    shown(data) {
      const trend = visibilityTrendReport.parse(data);
      const scored = trend.points.filter((point) => point.score !== null);
      expect(scored.length).toBeGreaterThan(0);
      return scored.flatMap((point) => [num(point.score!, 1), ...rateShown(point.mentionRate)]);
    },
  },
  {
    view: 'share-of-voice',
    tool: 'get_share_of_voice',
    args: { days: '7' },
    seed: seedAnswers,
    shown(data) {
      const report = shareOfVoiceReport.parse(data);
      expect(report.subjects.length).toBe(2);
      return report.subjects.flatMap((subject) => [subject.name, ...rateShown(subject.share)]);
    },
  },
  {
    view: 'google-vs-ai',
    tool: 'get_google_vs_ai',
    args: {},
    async seed(t, ws) {
      await seedAnswers(t, ws);
      return async () => void (await new Seeder(t, ws).query('analytics pricing'));
    },
    shown(data) {
      const report = googleVsAiReport.parse(data);
      return [...report.rows.map((row) => row.queryText), `${num(report.total)} tracked queries`, ...Object.values(report.summary).map((count) => num(count))];
    },
  },
  {
    view: 'content-calendar',
    tool: 'list_content',
    args: {},
    async seed(t, ws) {
      await commit(t, ws, 3, 'Guide');
      return async () => void (await commit(t, ws, 1, 'Checklist'));
    },
    shown(data) {
      const list = contentList.parse(data);
      return list.articles.flatMap((article) => [article.title, article.keyword]);
    },
  },
  {
    view: 'traffic',
    tool: 'get_traffic_overview',
    args: { days: '7' },
    async seed(t, ws) {
      await t.mcpTool(ws.key, 'activate_analytics_screen', { screen: 'analytics' });
      const site = await siteIdOf(t.db, ws.workspaceId);
      const view = async (ip: string, path: string) => {
        await collect(t.baseUrl, { s: site, t: 'pageview', u: `https://acme.example${path}` }, { ip });
        await t.service.counterIngest.flush();
      };
      await view('198.51.100.51', '/blog/guide');
      await view('198.51.100.52', '/blog/guide');
      return () => view('198.51.100.53', '/pricing');
    },
    shown(data) {
      const traffic = data as Traffic;
      expect(traffic.ours).not.toBeNull();
      return [num(traffic.ours!.pageViews), ...traffic.ours!.topPages.map((page) => page.path), num(traffic.aiCrawlers.total)];
    },
  },
  {
    view: 'backlinks',
    tool: 'get_backlink_stats',
    args: {},
    async seed(t, ws) {
      await t.mcpTool(ws.key, 'add_managed_backlink', { linkingUrl: 'https://blog.example.org/tools' });
      await t.mcpTool(ws.key, 'add_managed_backlink', { linkingUrl: 'https://news.example.net/analytics' });
      return async () => void (await t.mcpTool(ws.key, 'add_managed_backlink', { linkingUrl: 'https://wiki.example.com/acme' }));
    },
    shown(data) {
      const stats = data as BacklinkStats;
      return [`${num(stats.verified)} verified, ${num(stats.discovered)} discovered`, num(stats.total), num(stats.uniqueDomains)];
    },
  },
];

describe.skipIf(!hasChromium)('the MCP Apps views in Chromium, in a host built on the ext-apps AppBridge and a real MCP client', () => {
  let t: TestService;
  let browser: Browser;
  let host: string;
  let mcpUrl: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [t, browser, host] = await Promise.all([
      // The host page calls /mcp from its own origin, as a web host does: the service must allow that origin.
      TestService.start({ env: { TRUST_PROXY: 'loopback', ENGINE_CHATGPT_API_KEY: 'k', ENGINE_PERPLEXITY_API_KEY: 'k', ALLOWED_ORIGINS: new URL(HOST_URL).origin } }),
      launchChromium(),
      hostPage(),
    ]);
    mcpUrl = new URL('/mcp', t.baseUrl).href;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Calls the host page's sightlineHost (test/mcp/hostPage.browser.js) with JSON arguments; strings, since tsc here knows no DOM. */
  const callHost = (page: Page, method: string, ...args: unknown[]) => page.evaluate<unknown>(`window.sightlineHost.${method}(...${JSON.stringify(args)})`);

  /**
   * The host page at phone width, connected to /mcp with the workspace's key. Only the host page's own calls to /mcp
   * go out; every other request, the view's above all, is refused and kept, and every console error is kept.
   */
  async function openHost(ws: TestWorkspace, options: { colorScheme?: 'light' | 'dark' } = {}) {
    // The test service listens on loopback, which Chromium lets a page on a public address reach only with the reader's
    // leave; a deployed service is public, so that leave is no part of what the test checks.
    const page = await browser.newPage({ viewport: PHONE, colorScheme: options.colorScheme ?? 'light', permissions: ['local-network-access'] });
    const outside: string[] = [];
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.route('**/*', (route) => {
      const request = route.request();
      if (request.url() === HOST_URL) return route.fulfill({ contentType: 'text/html', body: host });
      if (request.url() === mcpUrl && request.frame() === page.mainFrame()) return route.continue();
      outside.push(`${request.frame() === page.mainFrame() ? 'host' : 'view'}: ${request.url()}`);
      return route.abort();
    });
    await page.goto(HOST_URL);
    await callHost(page, 'connect', mcpUrl, ws.key);
    return { page, outside, errors };
  }

  /** Has the host find the tool's view in tools/list, read it and render it; checks what resources/read answered. */
  async function openView(page: Page, tool: string, hostContext: Record<string, unknown>): Promise<Frame> {
    const view = appViewOfTool(tool)!;
    expect(await callHost(page, 'open', tool, hostContext)).toEqual({ uri: view.uri, mimeType: APP_MIME_TYPE, meta: { ui: { csp: view.csp, prefersBorder: true } } });
    await expect.poll(() => page.frames().length).toBe(2);
    return page.frames().find((frame) => frame !== page.mainFrame())!;
  }

  /** tools/call through the host's client; the host hands the result to the view. */
  const callTool = async (page: Page, args: Record<string, unknown>) => (await callHost(page, 'call', args)) as CallToolResult;

  /**
   * The whole view at phone width. The sandboxed frame runs in its own process, and Chromium paints such a frame only
   * inside the viewport: the viewport grows to the page for the picture instead of a full-page capture.
   */
  async function screenshot(page: Page, name: string): Promise<void> {
    const height = await page.evaluate<number>('document.documentElement.scrollHeight');
    await page.setViewportSize({ width: PHONE.width, height: Math.max(PHONE.height, height) });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
    await page.setViewportSize(PHONE);
  }

  const viewText = (frame: Frame) => frame.locator('#app').textContent().then((text) => text ?? '');
  const background = (frame: Frame) => frame.evaluate<string>('getComputedStyle(document.body).backgroundColor');

  async function expectShown(frame: Frame, texts: string[]): Promise<void> {
    await expect.poll(async () => {
      const shown = await viewText(frame);
      return texts.filter((text) => !shown.includes(text));
    }).toEqual([]);
  }

  for (const scenario of SCENARIOS) {
    it(`${scenario.tool} in the ${scenario.view} view: its numbers, a second call's in place, both themes, phone width`, async () => {
      expect(appViewOfTool(scenario.tool)?.name).toBe(scenario.view);
      const ws = await t.workspace();
      const more = await scenario.seed(t, ws);

      const { page, outside, errors } = await openHost(ws);
      const frame = await openView(page, scenario.tool, { theme: 'light', locale: 'en-US', displayMode: 'inline' });
      const first = await callTool(page, scenario.args);
      expect(first.isError ?? false, JSON.stringify(first.content)).toBe(false);
      await expectShown(frame, scenario.shown(first.structuredContent));
      const firstText = await viewText(frame);
      expect(await background(frame)).toBe('rgb(255, 255, 255)');
      // The host sized its frame from the view's size-changed notifications: the whole view fits, nothing scrolls.
      await expect.poll(async () => (await page.evaluate<number>('window.sightlineHost.sizes().at(-1) ?? 0')) - (await frame.evaluate<number>('document.documentElement.scrollHeight'))).toBe(0);
      // Nothing runs off the side of a phone: wide tables scroll inside their own box.
      expect(await frame.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await screenshot(page, `${scenario.tool}-light`);

      await more();
      const second = await callTool(page, scenario.args);
      expect(second.structuredContent).not.toEqual(first.structuredContent);
      await expectShown(frame, scenario.shown(second.structuredContent));
      expect(await viewText(frame)).not.toBe(firstText);
      expect(await frame.locator('#app > h1').count()).toBe(1);

      await callHost(page, 'setHostContext', { theme: 'dark' });
      await expect.poll(() => frame.evaluate<string>('document.documentElement.dataset.theme')).toBe('dark');
      expect(await background(frame)).toBe('rgb(22, 24, 28)');
      await screenshot(page, `${scenario.tool}-dark`);

      await callHost(page, 'close');
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it("follows the host's style variables, and the reader's colour scheme while the host names no theme", async () => {
    const ws = await t.workspace();
    await commit(t, ws, 1, 'Guide');
    const { page, outside, errors } = await openHost(ws, { colorScheme: 'dark' });
    const frame = await openView(page, 'list_content', { locale: 'en-US' });
    await callTool(page, {});
    await expectShown(frame, ['Guide 1']);
    expect(await background(frame)).toBe('rgb(22, 24, 28)');
    await callHost(page, 'setHostContext', { theme: 'light', styles: { variables: { '--color-background-primary': 'rgb(250, 240, 230)' } } });
    await expect.poll(() => background(frame)).toBe('rgb(250, 240, 230)');
    await callHost(page, 'close');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the text of the service's error result, not a broken view", async () => {
    const { page, outside, errors } = await openHost(await t.workspace());
    const frame = await openView(page, 'get_visibility_score', { theme: 'light' });
    const result = await callTool(page, { days: 'many' });
    expect(result.isError).toBe(true);
    const [content] = result.content;
    expect(content).toMatchObject({ type: 'text', text: expect.stringMatching(/days/) });
    await expectShown(frame, [(content as { text: string }).text]);
    await callHost(page, 'close');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
