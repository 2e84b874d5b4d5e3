/**
 * `npm run bench`, dashboard part (also on its own: `npx tsx test/bench/dashboard.ts`): the visibility bench's workspace
 * (visibilityWorkspace.ts) with BENCH_DASHBOARD_QUERIES tracked queries (default 500: 156,000 answers), on SQLite
 * and on PostgreSQL when one answers (BENCH_PG_URL, as the visibility part), served by the real service with every
 * provider configured and its worker off. Owners signed in through /signin request every page of the dashboard's
 * map (AREAS in src/web/areas.ts) and the first article's page: BENCH_DASHBOARD_CALLS times each (default 30, after
 * 5 unmeasured), one at a time, timing the whole answer. Aim: every page under 100 ms at p95. A page that answers
 * anything but a 200 fails the run, as does a page over the aim. The last line of output is
 * `bench-dashboard-result {json}`.
 *
 * Pages read through operations as the signed-in person, under the plan's request limits per person: the requests
 * rotate over a pool of owners' sessions so that none reaches a limit.
 */
import { createUser } from '../../src/operator.js';
import { systemClock } from '../../src/clock.js';
import { AREAS } from '../../src/web/areas.js';
import { pageUrl } from '../../src/web/paths.js';
import { Visitor } from '../support/visitor.js';
import { onEachStore, percentile, round, serveWorkspace, setting, type Store } from './store.js';
import { ALL_PROVIDERS, generateBenchWorkspace } from './visibilityWorkspace.js';

const AIM_P95_MS = 100;
const WARMUP_CALLS = 5;
const CALLS = setting('BENCH_DASHBOARD_CALLS', 30, 10, 500);
const QUERIES = setting('BENCH_DASHBOARD_QUERIES', 500, 50, 20_000);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Sessions the requests rotate over; the scale plan has 50 seats, and sign-ins from one address are capped at 50 in 15 minutes. */
const SESSIONS = 16;
const PASSWORD = 'bench dashboard password';

function log(message: string): void {
  process.stdout.write(`bench dashboard: ${message}\n`);
}

interface PageMeasurement {
  page: string;
  /** Every status other than 200 the page answered, with the page's title and how often; empty when all were 200. */
  failures: string[];
  p50: number;
  p95: number;
  max: number;
  kib: number;
}

interface DialectResult {
  dialect: string;
  answers: number;
  pages: PageMeasurement[];
}

/** Owners of the workspace, each signed in with a session cookie of their own. */
async function signedInOwners(store: Store, workspaceId: string, baseUrl: string): Promise<Visitor[]> {
  const visitors: Visitor[] = [];
  for (let n = 0; n < SESSIONS; n++) {
    const email = `owner-${n}@bench.example`;
    await createUser(store.handle.db, systemClock, { email, password: PASSWORD, workspaceId, role: 'owner' });
    const visitor = new Visitor(baseUrl);
    const signedIn = await visitor.signIn(email, PASSWORD);
    if (signedIn.status !== 303) throw new Error(`signing in ${email} answered ${signedIn.status}: ${(await signedIn.text()).slice(0, 300)}`);
    visitors.push(visitor);
  }
  return visitors;
}

/** The page's answers to `calls` GETs after `warmUp` untimed ones, the sessions taking turns. */
async function measurePage(visitors: readonly Visitor[], path: string, label: string): Promise<PageMeasurement> {
  const times: number[] = [];
  const failures = new Map<string, number>();
  let bytes = 0;
  for (let i = 0; i < WARMUP_CALLS + CALLS; i++) {
    const started = performance.now();
    const response = await visitors[i % visitors.length]!.request(path);
    const body = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) {
      const reason = `${response.status} ${/<title>([^<]*)<\/title>/.exec(body)?.[1] ?? body.slice(0, 160)}`;
      failures.set(reason, (failures.get(reason) ?? 0) + 1);
    }
    if (i >= WARMUP_CALLS) times.push(ms);
    bytes = body.length;
  }
  times.sort((a, b) => a - b);
  return {
    page: label,
    failures: [...failures].map(([reason, count]) => `${count}x ${reason}`),
    p50: round(percentile(times, 0.5)),
    p95: round(percentile(times, 0.95)),
    max: round(times[times.length - 1]!),
    kib: round(bytes / 1024),
  };
}

async function benchStore(store: Store): Promise<DialectResult> {
  const { workspaceId, report } = await generateBenchWorkspace(store, QUERIES, log);
  const { service, caller, baseUrl } = await serveWorkspace(store, workspaceId, 1, ALL_PROVIDERS);
  try {
    const visitors = await signedInOwners(store, workspaceId, baseUrl);
    const { articles } = JSON.parse((await caller.get('/api/v1/content')).body).data as { articles: Array<{ id: string }> };
    const pages = [
      ...AREAS.flatMap((area) => area.pages.map((page) => ({ label: `${area.title}: ${page.title}`, path: pageUrl(workspaceId, page.path) }))),
      ...(articles[0] === undefined ? [] : [{ label: 'Content: an article', path: pageUrl(workspaceId, `content/articles/${articles[0].id}`) }]),
    ];
    const measured: PageMeasurement[] = [];
    for (const { label, path } of pages) {
      const page = await measurePage(visitors, path, label);
      log(`${store.dialect}: ${label}: p50 ${page.p50} ms, p95 ${page.p95} ms${page.failures.length > 0 ? `; FAILED ${page.failures.join('; ')}` : ''}`);
      measured.push(page);
    }
    return { dialect: store.dialect, answers: report.rows.engine_answers ?? 0, pages: measured };
  } finally {
    await service.close();
  }
}

/** The pages as rows, each dialect's p50 and p95 side by side, and what failed. */
function pageTable(results: readonly DialectResult[]): string {
  const header = ['page', ...results.flatMap((r) => [`${r.dialect} p50`, `${r.dialect} p95`])];
  const rows = (results[0]?.pages ?? []).map((page, i) => [page.page, ...results.flatMap((r) => [String(r.pages[i]!.p50), String(r.pages[i]!.p95)])]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const results = await onEachStore('sightline-bench-dashboard-', PG_URL, log, benchStore);
  const failed = results.flatMap((r) => r.pages.filter((page) => page.failures.length > 0).map((page) => `${r.dialect} ${page.page}: ${page.failures.join('; ')}`));
  const slow = results.flatMap((r) => r.pages.filter((page) => page.p95 > AIM_P95_MS).map((page) => `${r.dialect} ${page.page}: p95 ${page.p95} ms`));
  const slowest = Math.max(...results.flatMap((r) => r.pages.map((page) => page.p95)));
  const met = failed.length === 0 && slow.length === 0;
  process.stdout.write(`\n${pageTable(results)}\n\n`);
  for (const r of results) process.stdout.write(`${r.dialect}: ${r.answers} answers, ${r.pages.length} pages\n`);
  process.stdout.write(`slowest p95 ${slowest} ms (aim < ${AIM_P95_MS} ms)  ${met ? 'met' : 'NOT MET'}; ${CALLS} requests per page after ${WARMUP_CALLS} unmeasured, one at a time\n`);
  for (const problem of [...failed, ...slow]) process.stdout.write(`  - ${problem}\n`);
  process.stdout.write(`\nbench-dashboard-result ${JSON.stringify({ queries: QUERIES, calls: CALLS, aimP95Ms: AIM_P95_MS, met, results })}\n`);
  if (!met) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  process.stderr.write(`\nbench dashboard FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
