/**
 * `npm run bench`, counter part (`BENCH_PARTS=counter`, or on its own: `npx tsx test/bench/counter.ts`): the service's
 * own privacy-friendly counter, in three measurements, each with its aim (a run that misses one exits 1):
 *
 * 1. The tracking loader's size: /t.js gzipped at level 9, as the endpoint serves it. Aim: under 2,048 bytes.
 * 2. Collect throughput on SQLite: the real service in a child process (counter-server.ts) and autocannon here, posting
 *    what browsers post (text/plain JSON bodies with the site's Origin and a browser user agent) for thousands of
 *    simulated visitors at once, each with its own address (X-Forwarded-For) and user agent: page views with their
 *    referrers, engagement reports, a second and third page for some, and a lead for a few. BENCH_COUNTER_POSTS events
 *    (default 60,000) after 5,000 unmeasured, over BENCH_COUNTER_CONNECTIONS connections (default 64). Every answer
 *    must be a 204, counted per event type; afterwards the service writes what still waits in its batch and the stored
 *    sums must equal what was accepted: page views (daily, per page and day, per page and week), first engagement reports, visible time and
 *    leads. Aim: at least 2,000 events a second with nothing lost.
 * 3. Reads at scale on SQLite and PostgreSQL (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/test; skipped with
 *    a note when it does not answer): the pre-aggregated tables of a site with BENCH_COUNTER_EVENTS counted events
 *    (default 10,000,000) over BENCH_COUNTER_DAYS days (default 180: the 90-day overview reads the window and the 90
 *    days before it) are generated (counterData.ts), then p50/p99 of the counter's reads through the real service over
 *    REST, BENCH_COUNTER_CALLS calls each (default 200, after 20 unmeasured), one at a time, rate limits on. Aim:
 *    every read under 200 ms at p99.
 *
 * BENCH_COUNTER_STEPS=loader, collect or reads (or a comma list) runs only those; BENCH_CPU_PROF=<dir> writes a V8 CPU
 * profile of the collect step's server there. The last line of output is `bench-counter-result {json}`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { migrateToLatest } from '../../db/migrate.js';
import type { Database } from '../../db/schema.js';
import { LOADER_SOURCE } from '../../src/analytics/counter/loader.js';
import { activateScreen } from '../../src/analytics/screens.js';
import { systemClock } from '../../src/clock.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { metricWindow } from '../../src/visibility/metrics/window.js';
import { isoDate } from '../../src/shared/time.js';
import type { StoredTotals } from './counter-server.js';
import { ARTICLES, articleUrl, COUNTER_TABLES, generateCounter, LEADS, sitePaths, type CounterReport } from './counterData.js';
import { type Caller, measureRead, onEachStore, type ReadMeasurement, readTable, type ReadTarget, round, seededRandom, serveWorkspace, setting, type Store } from './store.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');

const LOADER_AIM_BYTES = 2048;
const COLLECT_AIM_PER_SECOND = 2000;
const READ_AIM_P99_MS = 200;
const COLLECT_WARMUP_POSTS = 5000;
/** Visitors in the middle of a visit at any moment; each request is the next event of one of them, picked at random. */
const CONCURRENT_VISITORS = 3000;
const READ_WARMUP_CALLS = 20;
const KEYS = 80;
const START_TIMEOUT_MS = 60_000;

const POSTS = setting('BENCH_COUNTER_POSTS', 60_000, 5000, 1_000_000);
const CONNECTIONS = setting('BENCH_COUNTER_CONNECTIONS', 64, 1, 512);
const EVENTS = setting('BENCH_COUNTER_EVENTS', 10_000_000, 100_000, 50_000_000);
const DAYS = setting('BENCH_COUNTER_DAYS', 180, 91, 730);
const CALLS = setting('BENCH_COUNTER_CALLS', 200, 10, 2000);
const STEP_NAMES = ['loader', 'collect', 'reads'];
const STEPS = new Set((process.env.BENCH_COUNTER_STEPS ?? STEP_NAMES.join(',')).split(',').map((step) => step.trim()));
for (const step of STEPS) if (!STEP_NAMES.includes(step)) throw new Error(`BENCH_COUNTER_STEPS: a comma list of ${STEP_NAMES.join(', ')}, got "${step}"`);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DOMAIN = 'bench.example';

function log(message: string): void {
  process.stdout.write(`bench counter: ${message}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// 1. The loader

function loaderSize() {
  const gzipBytes = gzipSync(LOADER_SOURCE, { level: 9 }).length;
  const met = gzipBytes < LOADER_AIM_BYTES;
  log(`loader /t.js: ${Buffer.byteLength(LOADER_SOURCE)} bytes, ${gzipBytes} gzipped (aim < ${LOADER_AIM_BYTES}): ${met ? 'met' : 'NOT MET'}`);
  return { bytes: Buffer.byteLength(LOADER_SOURCE), gzipBytes, aimBytes: LOADER_AIM_BYTES, met };
}

// ---------------------------------------------------------------------------------------------------------
// 2. Collect throughput

type EventKind = 'pageview' | 'engagement' | 'lead';

interface Step {
  kind: EventKind;
  body: string;
  /** Engagement: the visible time it reports, and whether it is the page view's first report. */
  engagedMs: number;
  firstReport: boolean;
}

interface Visitor {
  address: string;
  userAgent: string;
  steps: Step[];
}

const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
];

/** Where visits come from, by share: a referrer, a utm_source tag on the landing page, or nothing. */
const ARRIVALS: ReadonlyArray<{ share: number; referrer?: string; utm?: string }> = [
  { share: 0.4, referrer: 'https://www.google.com/' },
  { share: 0.27 },
  { share: 0.1, referrer: 'https://www.linkedin.com/' },
  { share: 0.08, referrer: 'https://news.ycombinator.com/' },
  { share: 0.08, referrer: 'https://chatgpt.com/' },
  { share: 0.03, utm: 'perplexity.ai' },
  { share: 0.02, referrer: 'https://gemini.google.com/' },
  { share: 0.02, referrer: 'https://claude.ai/' },
];

/**
 * Visits in progress: each request is the next event of a visitor picked at random, so that a visitor's events spread
 * over the run as a real visit's do; a visitor whose visit is over is replaced by a new one.
 */
class VisitorTraffic {
  private readonly rand = seededRandom(20261126);
  private readonly paths = sitePaths().paths;
  private readonly active: Visitor[] = [];
  private made = 0;

  constructor(
    private readonly site: string,
    private readonly origin: string,
  ) {
    for (let i = 0; i < CONCURRENT_VISITORS; i++) this.active.push(this.visitor());
  }

  next(): Step & { address: string; userAgent: string } {
    const index = Math.floor(this.rand() * this.active.length);
    const visitor = this.active[index]!;
    const step = visitor.steps.shift()!;
    if (visitor.steps.length === 0) this.active[index] = this.visitor();
    return { ...step, address: visitor.address, userAgent: visitor.userAgent };
  }

  private page(): string {
    // Most visits land on the first few pages; cubing the draw gives the long tail.
    return `${this.origin}${this.paths[Math.floor(Math.pow(this.rand(), 3) * this.paths.length)]!}`;
  }

  private visitor(): Visitor {
    const n = this.made++;
    // RFC 2544's benchmarking range, 198.18.0.0/15: 131,072 addresses, one per visitor.
    const address = `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
    const userAgent = BROWSERS[n % BROWSERS.length]!;
    let pick = this.rand();
    const arrival = ARRIVALS.find((a) => (pick -= a.share) < 0) ?? ARRIVALS[1]!;
    const steps: Step[] = [];
    const event = (kind: EventKind, body: Record<string, unknown>, engagedMs = 0, firstReport = false) =>
      steps.push({ kind, body: JSON.stringify({ s: this.site, t: kind, ...body }), engagedMs, firstReport });
    let previous: string | undefined;
    const pages = this.rand() < 0.45 ? (this.rand() < 0.45 ? 3 : 2) : 1;
    for (let p = 0; p < pages; p++) {
      const landing = p === 0;
      const url = landing && arrival.utm !== undefined ? `${this.page()}?utm_source=${encodeURIComponent(arrival.utm)}` : this.page();
      const referrer = landing ? arrival.referrer : previous;
      event('pageview', { u: url, ...(referrer === undefined ? {} : { r: referrer }) });
      if (this.rand() < 0.85) {
        const engaged = 2000 + Math.floor(this.rand() * 120_000);
        event('engagement', { u: url, e: engaged, v: 1 }, engaged, true);
        // Back to the tab later: a second report of the same page view.
        if (this.rand() < 0.1) {
          const more = 1000 + Math.floor(this.rand() * 30_000);
          event('engagement', { u: url, e: more, v: 0 }, more, false);
        }
      }
      previous = url;
    }
    if (this.rand() < 0.02) event('lead', { u: `${this.origin}/contact`, i: 'demo', f: { email: `visitor${n}@customer.example`, name: `Visitor ${n}`, company: 'Customer Co', message: 'A demo, please.' } });
    return { address, userAgent, steps };
  }
}

/** What the service answered, per event type, and what the 204-answered events carried. */
class Accepted {
  readonly statuses: Record<EventKind, Record<string, number>> = { pageview: {}, engagement: {}, lead: {} };
  pageViews = 0;
  firstReports = 0;
  engagedMs = 0;
  leads = 0;

  record(step: Step, status: number): void {
    const byStatus = this.statuses[step.kind];
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    if (status !== 204) return;
    if (step.kind === 'pageview') this.pageViews++;
    else if (step.kind === 'lead') this.leads++;
    else {
      this.engagedMs += step.engagedMs;
      if (step.firstReport) this.firstReports++;
    }
  }

  refusals(): string[] {
    return Object.entries(this.statuses).flatMap(([kind, byStatus]) =>
      Object.entries(byStatus)
        .filter(([status]) => status !== '204')
        .map(([status, count]) => `${count} ${kind} events answered ${status}`),
    );
  }
}

interface CounterServer {
  url: string;
  site: string;
  origin: string;
  stored(): Promise<StoredTotals>;
  /** CPU time the server process has used so far, user and system, in ms. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

const announcement = z.object({ url: z.string().startsWith('http://127.0.0.1:'), site: z.string(), origin: z.string() });
const storedAnswer = z.union([
  z.object({ pageViews: z.number(), pagePageViews: z.number(), weekPageViews: z.number(), engagedViews: z.number(), engagedMs: z.number(), leads: z.number() }),
  z.object({ error: z.string() }),
]);
const cpuAnswer = z.object({ cpuMs: z.number() });

/** Resolves to the next line the child prints, or fails when it exits or takes too long. */
function nextLine(lines: Interface, proc: ChildProcess, what: string): Promise<string> {
  return new Promise((resolveLine, reject) => {
    const timer = setTimeout(() => settle(() => reject(new Error(`counter server: no ${what} within ${START_TIMEOUT_MS / 1000} s`))), START_TIMEOUT_MS);
    const onLine = (line: string) => settle(() => resolveLine(line));
    const onExit = (code: number | null) => settle(() => reject(new Error(`counter server: exited (code ${String(code)}) before its ${what}`)));
    const settle = (then: () => void) => {
      clearTimeout(timer);
      lines.off('line', onLine);
      proc.off('exit', onExit);
      then();
    };
    lines.once('line', onLine);
    proc.once('exit', onExit);
  });
}

async function startCounterServer(): Promise<CounterServer> {
  const profile = CPU_PROF_DIR === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${join(CPU_PROF_DIR, 'counter-server')}`];
  const proc = spawn(process.execPath, [...profile, '--import', 'tsx', join(HERE, 'counter-server.ts')], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } });
  const lines = createInterface({ input: proc.stdout! });
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = once(proc, 'exit');
    proc.stdin!.end();
    proc.kill('SIGTERM');
    await exited;
  };
  try {
    const info = announcement.parse(JSON.parse(await nextLine(lines, proc, 'address')));
    const ask = async (command: string) => {
      const answer = nextLine(lines, proc, `answer to ${command}`);
      proc.stdin!.write(`${command}\n`);
      return JSON.parse(await answer) as unknown;
    };
    return {
      ...info,
      cpuMs: async () => cpuAnswer.parse(await ask('cpu')).cpuMs,
      async stored() {
        const totals = storedAnswer.parse(await ask('stored'));
        if ('error' in totals) throw new Error(`counter server: reading the stored totals failed: ${totals.error}`);
        return totals;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface PostRun {
  eventsPerSecond: number;
  p50: number;
  p99: number;
  events: number;
  seconds: number;
  errors: number;
  timeouts: number;
}

/** Posts `amount` events and waits for every answer (a run bounded by time would cut answers off, and with them the count). */
async function post(server: CounterServer, traffic: VisitorTraffic, accepted: Accepted, amount: number): Promise<PostRun> {
  const inFlight = new WeakMap<object, Step>();
  // autocannon ends a run bounded by amount at its next one-second tick: the rate is timed to the last answer instead.
  const started = performance.now();
  let lastAnswer = started;
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    pipelining: 1,
    amount,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: '/api/site/collect',
        setupRequest: (request, context) => {
          const step = traffic.next();
          inFlight.set(context, step);
          return {
            ...request,
            headers: { 'content-type': 'text/plain;charset=UTF-8', origin: server.origin, 'user-agent': step.userAgent, 'x-forwarded-for': step.address },
            body: step.body,
          };
        },
        // Per connection, one request at a time: the context's step is the one this answer belongs to.
        onResponse: (status, _body, context) => {
          lastAnswer = performance.now();
          accepted.record(inFlight.get(context)!, status);
        },
      },
    ],
  });
  const seconds = (lastAnswer - started) / 1000;
  return {
    eventsPerSecond: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    events: result.requests.total,
    seconds: round(seconds, 2),
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

async function collectThroughput() {
  const server = await startCounterServer();
  try {
    const traffic = new VisitorTraffic(server.site, server.origin);
    const accepted = new Accepted();
    log(`collect: ${CONCURRENT_VISITORS} visitors at a time, ${CONNECTIONS} connections; ${COLLECT_WARMUP_POSTS} events to warm up`);
    const warm = await post(server, traffic, accepted, COLLECT_WARMUP_POSTS);
    log(`collect: measuring ${POSTS} events`);
    const cpuBefore = await server.cpuMs();
    const run = await post(server, traffic, accepted, POSTS);
    // The service's own CPU time per event, batch writes included: what the rate would be with a core to itself.
    const cpuMsPerEvent = (await server.cpuMs() - cpuBefore) / run.events;
    const stored = await server.stored();
    const expected: StoredTotals = { pageViews: accepted.pageViews, pagePageViews: accepted.pageViews, weekPageViews: accepted.pageViews, engagedViews: accepted.firstReports, engagedMs: accepted.engagedMs, leads: accepted.leads };
    const lost = (Object.keys(expected) as Array<keyof StoredTotals>).filter((field) => stored[field] !== expected[field]).map((field) => `${field}: ${expected[field]} accepted, ${stored[field]} stored`);
    const problems = [
      ...accepted.refusals(),
      ...[warm, run].filter((r) => r.errors > 0).map((r) => `${r.errors} connection errors (${r.timeouts} timeouts)`),
      ...lost,
    ];
    const met = run.eventsPerSecond >= COLLECT_AIM_PER_SECOND && problems.length === 0;
    log(`collect: ${Math.round(run.eventsPerSecond)} events/s (aim >= ${COLLECT_AIM_PER_SECOND}), p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.events} events in ${run.seconds} s`);
    log(`collect: the service used ${cpuMsPerEvent.toFixed(3)} ms of CPU per event (${Math.round(1000 / cpuMsPerEvent)} events per CPU-second)`);
    log(`collect: accepted ${accepted.pageViews} page views, ${accepted.firstReports} first engagement reports (${accepted.engagedMs} ms), ${accepted.leads} leads; stored ${JSON.stringify(stored)}`);
    for (const problem of problems) log(`collect: PROBLEM: ${problem}`);
    log(`collect: ${met ? 'met' : 'NOT MET'}`);
    return { connections: CONNECTIONS, eventsPerSecond: Math.round(run.eventsPerSecond), cpuMsPerEvent: round(cpuMsPerEvent, 3), p50Ms: run.p50, p99Ms: run.p99, events: run.events, seconds: run.seconds, accepted: expected, stored, problems, aimPerSecond: COLLECT_AIM_PER_SECOND, met };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------
// 3. Reads at scale

const READS: ReadTarget[] = [
  { label: 'get_traffic_overview (ours, 7 days)', path: '/api/v1/analytics/traffic?scope=ours&days=7' },
  { label: 'get_traffic_overview (ours, 30 days)', path: '/api/v1/analytics/traffic?scope=ours&days=30' },
  { label: 'get_traffic_overview (ours, 90 days)', path: '/api/v1/analytics/traffic?scope=ours&days=90' },
  { label: 'get_page_engagement', path: '/api/v1/analytics/engagement' },
  { label: 'get_funnel (30 days)', path: '/api/v1/overview/funnel?days=30' },
  { label: 'list_leads (page 1)', path: '/api/v1/leads' },
];

const trafficAnswer = z.object({ data: z.object({ ours: z.object({ pageViews: z.number(), topPages: z.array(z.object({ path: z.string() })).length(10) }) }) });
const engagementAnswer = z.object({ data: z.object({ pages: z.array(z.object({ views: z.number() })) }) });
const funnelAnswer = z.object({ data: z.object({ aiVisits: z.object({ count: z.number() }), aiLeads: z.object({ count: z.number() }), crawls: z.object({ count: z.number() }) }) });
const leadsAnswer = z.object({ data: z.object({ total: z.number(), leads: z.array(z.unknown()).length(25) }) });

/** The answers must carry the generated figures, or the timings measure empty reads. */
async function checkAnswers(caller: Caller, db: Kysely<Database>, workspaceId: string, now: number): Promise<void> {
  const window = metricWindow('90', now);
  const sum = await db
    .selectFrom('counter_days')
    .select((eb) => eb.fn.sum<number | string>('pageviews').as('pageviews'))
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', isoDate(window.from))
    .where('day', '<=', isoDate(window.to))
    .executeTakeFirstOrThrow();
  const traffic = trafficAnswer.parse(JSON.parse((await caller.get(READS[2]!.path)).body));
  if (traffic.data.ours.pageViews !== Number(sum.pageviews)) throw new Error(`get_traffic_overview: ${traffic.data.ours.pageViews} page views over 90 days, the sums hold ${Number(sum.pageviews)}`);
  const engagement = engagementAnswer.parse(JSON.parse((await caller.get(READS[3]!.path)).body));
  if (engagement.data.pages.length !== ARTICLES || engagement.data.pages[0]!.views === 0) throw new Error(`get_page_engagement: expected ${ARTICLES} articles with views`);
  const funnel = funnelAnswer.parse(JSON.parse((await caller.get(READS[4]!.path)).body));
  if (funnel.data.aiVisits.count === 0 || funnel.data.aiLeads.count === 0 || funnel.data.crawls.count === 0) throw new Error(`get_funnel: an empty stage: ${JSON.stringify(funnel.data)}`);
  const leads = leadsAnswer.parse(JSON.parse((await caller.get(READS[5]!.path)).body));
  if (leads.data.total !== LEADS) throw new Error(`list_leads: total ${leads.data.total}, expected ${LEADS}`);
}

/** The generated sums must agree with one another as the batch writer leaves them. */
async function checkSums(db: Kysely<Database>, workspaceId: string, report: CounterReport): Promise<void> {
  const total = async (table: 'counter_days' | 'counter_page_days' | 'counter_page_weeks' | 'counter_source_days', column: 'pageviews' | 'sessions' | 'leads') => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.sum<number | string>(column).as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const figures = {
    dayViews: await total('counter_days', 'pageviews'),
    pageViews: await total('counter_page_days', 'pageviews'),
    weekViews: await total('counter_page_weeks', 'pageviews'),
    daySessions: await total('counter_days', 'sessions'),
    sourceSessions: await total('counter_source_days', 'sessions'),
    sourceLeads: await total('counter_source_days', 'leads'),
  };
  const leads = await db.selectFrom('leads').select((eb) => eb.fn.countAll<number | string>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
  if (figures.dayViews !== report.pageViews || figures.pageViews !== report.pageViews || figures.weekViews !== report.pageViews || figures.daySessions !== figures.sourceSessions || figures.sourceLeads !== Number(leads.n)) {
    throw new Error(`generated sums disagree: ${JSON.stringify({ ...figures, leads: Number(leads.n), reported: report.pageViews })}`);
  }
}

interface DialectResult {
  dialect: string;
  generationSeconds: number;
  rows: Record<string, number>;
  storage: string;
  measurements: ReadMeasurement[];
}

async function benchStore(store: Store): Promise<{ result: DialectResult; report: CounterReport }> {
  const { db } = store.handle;
  await migrateToLatest(store.handle);
  const now = systemClock.now();
  const workspaceId = await createWorkspace(db, systemClock, { name: 'Bench Counter', websiteUrl: `https://${DOMAIN}`, plan: 'scale' });
  log(`${store.dialect}: generating ${DAYS} days of sums for about ${EVENTS.toLocaleString('en')} events`);
  const started = performance.now();
  // The articles come first: the crawler visits name them.
  const articleIds = await db.transaction().execute(async (trx) => {
    const ids: string[] = [];
    for (let n = 0; n < ARTICLES; n++) {
      const id = await insertPlannedArticle(trx, systemClock, { workspaceId, keyword: `article ${n}`, title: `Article ${n}`, scheduledAt: now - 200 * 86_400_000, language: 'en' });
      await trx.updateTable('articles').set({ status: 'published', url: articleUrl(DOMAIN, n), published_at: now - 200 * 86_400_000 }).where('id', '=', id).execute();
      ids.push(id);
    }
    return ids;
  });
  const writer = await store.writer(COUNTER_TABLES);
  let report: CounterReport;
  try {
    report = await generateCounter(writer, { workspaceId, domain: DOMAIN, now, articleIds }, EVENTS, DAYS);
  } finally {
    await writer.close();
  }
  // What a site whose loader reports has: the screen on, and the counter as the funnel's source of human traffic.
  await activateScreen(db, systemClock, workspaceId, 'analytics');
  await db.updateTable('analytics_sites').set({ loader_seen_at: now }).where('workspace_id', '=', workspaceId).execute();
  const generationSeconds = round((performance.now() - started) / 1000);
  await checkSums(db, workspaceId, report);
  log(
    `${store.dialect}: generated in ${generationSeconds} s: ${report.events.toLocaleString('en')} events (${report.pageViews.toLocaleString('en')} page views, ` +
      `${report.engagementReports.toLocaleString('en')} engagement reports, ${report.leads} leads); rows ${Object.entries(report.rows).map(([table, n]) => `${table} ${n}`).join(', ')}`,
  );

  const { service, caller } = await serveWorkspace(store, workspaceId, KEYS);
  const measurements: ReadMeasurement[] = [];
  try {
    // Each key's first use records when it was used (a write, once a minute): done here, outside the measurements.
    for (let i = 0; i < KEYS; i++) await caller.get('/api/v1/leads?limit=1');
    await checkAnswers(caller, db, workspaceId, now);
    for (const target of READS) {
      const measured = await measureRead(caller, target, READ_WARMUP_CALLS, CALLS);
      log(`${store.dialect}: ${target.label}: p50 ${measured.p50} ms, p99 ${measured.p99} ms`);
      measurements.push(measured);
    }
  } finally {
    await service.close();
  }
  return { result: { dialect: store.dialect, generationSeconds, rows: report.rows, storage: store.size(), measurements }, report };
}

async function readsAtScale() {
  const measured = await onEachStore('sightline-bench-counter-reads-', PG_URL, log, benchStore);
  const results = measured.map((m) => m.result);
  const report: CounterReport | undefined = measured.at(-1)?.report;
  const slowest = Math.max(...results.flatMap((r) => r.measurements.map((m) => m.p99)));
  const met = slowest < READ_AIM_P99_MS;
  process.stdout.write(`\n${readTable(results)}\n\n`);
  for (const r of results) process.stdout.write(`${r.dialect}: generated in ${r.generationSeconds} s (${r.storage})\n`);
  process.stdout.write(
    `sums of ${report!.events.toLocaleString('en')} events over ${DAYS} days (${report!.pageViews.toLocaleString('en')} page views, ${report!.engagementReports.toLocaleString('en')} engagement reports, ${report!.leads} leads)\n`,
  );
  process.stdout.write(`slowest p99 ${slowest} ms (aim < ${READ_AIM_P99_MS} ms)  ${met ? 'met' : 'NOT MET'}; ${CALLS} calls per read after ${READ_WARMUP_CALLS} unmeasured, one at a time, every answer a 200\n\n`);
  return { days: DAYS, events: report!.events, pageViews: report!.pageViews, engagementReports: report!.engagementReports, leads: report!.leads, calls: CALLS, aimP99Ms: READ_AIM_P99_MS, met, results };
}

try {
  const loader = STEPS.has('loader') ? loaderSize() : null;
  const collect = STEPS.has('collect') ? await collectThroughput() : null;
  const reads = STEPS.has('reads') ? await readsAtScale() : null;
  process.stdout.write(`bench-counter-result ${JSON.stringify({ loader, collect, reads })}\n`);
  if ([loader, collect, reads].some((step) => step !== null && !step.met)) process.exitCode = 1;
} catch (error) {
  process.stderr.write(`\nbench counter FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
