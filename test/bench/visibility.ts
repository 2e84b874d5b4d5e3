/**
 * `npm run bench`, visibility part (also on its own: `npx tsx test/bench/visibility.ts`): generates a workspace with
 * BENCH_VISIBILITY_QUERIES tracked queries (default 5,000), 10 competitors and a year of weekly checks on six
 * engines (about 1,560,000 answers at 5,000 queries; see visibilityData.ts), on SQLite (a temp file) and on
 * PostgreSQL when one is reachable (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/test, in a fresh schema
 * dropped afterwards), then measures p50/p99 latency of
 * list_citations pages and every metric read through the real service over REST: BENCH_VISIBILITY_CALLS calls each
 * (default 200, after 20 unmeasured), one at a time. Aim: every read under 50 ms at p99. Then the write side of a
 * weekly check: queueing the whole run, and 300 answers and 300 rank checks recorded through the recording code.
 *
 * The service runs in this process (one request at a time, so the client's share of the event loop is small) with
 * its rate limits on: requests rotate over a pool of API keys so that no key reaches a route cap. Any answer other
 * than a 200 fails the run. The last line of output is `bench-visibility-result {json}`.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { systemClock } from '../../src/clock.js';
import type { Services } from '../../src/outsideServices.js';
import { recordEngineAnswer, recordRankCheck } from '../../src/visibility/checks/record.js';
import { startCheckRun } from '../../src/visibility/checks/runs.js';
import { normaliseCitations } from '../../src/visibility/engines/engine.js';
import { measureRead, onEachStore, percentile, type ReadMeasurement, readTable, type ReadTarget, round, serveWorkspace, type Store } from './store.js';
import { trackedQuery, type GenerationReport } from './visibilityData.js';
import { ALL_PROVIDERS, BRAND, generateBenchWorkspace } from './visibilityWorkspace.js';

const AIM_P99_MS = 50;
const WARMUP_CALLS = 20;
const KEYS = 80;
const CALLS = (() => {
  const raw = process.env.BENCH_VISIBILITY_CALLS ?? '200';
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 10 || value > 2000) throw new Error(`BENCH_VISIBILITY_CALLS: a whole number from 10 to 2000, got "${raw}"`);
  return value;
})();
const QUERIES = (() => {
  const raw = process.env.BENCH_VISIBILITY_QUERIES ?? '5000';
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 50 || value > 20_000) throw new Error(`BENCH_VISIBILITY_QUERIES: a whole number from 50 to 20000, got "${raw}"`);
  return value;
})();
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
function log(message: string): void {
  process.stdout.write(`bench visibility: ${message}\n`);
}

function targets(middle: number): ReadTarget[] {
  return [
    { label: 'list_citations, first page (100)', path: '/api/v1/citations' },
    { label: 'list_citations, deep page (before)', path: `/api/v1/citations?before=${encodeURIComponent(new Date(middle).toISOString())}` },
    { label: 'list_citations, model filter', path: '/api/v1/citations?model=claude' },
    { label: 'get_visibility_score (90 days)', path: '/api/v1/visibility/score?days=90' },
    { label: 'get_visibility_trend (90 days)', path: '/api/v1/visibility/trend?days=90' },
    { label: 'get_share_of_voice (90 days)', path: '/api/v1/visibility/share-of-voice?days=90' },
    { label: 'get_citation_sources (90 days)', path: '/api/v1/visibility/sources?days=90' },
    { label: 'get_sentiment (90 days)', path: '/api/v1/visibility/sentiment?days=90' },
    { label: 'get_rankings_ (ours)', path: '/api/v1/analytics/rankings' },
    { label: 'get_rankings_ (site)', path: '/api/v1/analytics/rankings?scope=site' },
    { label: 'get_rankings_ (site, page 30)', path: '/api/v1/analytics/rankings?scope=site&page=30' },
    { label: 'get_google_vs_ai', path: '/api/v1/analytics/google-vs-ai' },
    { label: 'get_google_vs_ai (state google)', path: '/api/v1/analytics/google-vs-ai?state=google' },
    { label: 'get_google_vs_ai (page 40)', path: '/api/v1/analytics/google-vs-ai?page=40' },
    { label: 'get_competitors', path: '/api/v1/competitors' },
  ];
}

interface DialectResult {
  dialect: string;
  generationSeconds: number;
  rows: GenerationReport['rows'];
  storage: string;
  measurements: ReadMeasurement[];
  writes: WritePath;
}

async function benchStore(store: Store): Promise<DialectResult> {
  const { db } = store.handle;
  const { workspaceId, report, generationSeconds } = await generateBenchWorkspace(store, QUERIES, log);
  const { service, caller } = await serveWorkspace(store, workspaceId, KEYS, ALL_PROVIDERS);
  const measurements: ReadMeasurement[] = [];
  let writes: WritePath;
  try {
    // Each key's first use records when it was used (a write, once a minute): done here, outside the measurements.
    for (let i = 0; i < KEYS; i++) await caller.get('/api/v1/queries');
    for (const target of targets(report.middle)) {
      const measured = await measureRead(caller, target, WARMUP_CALLS, CALLS);
      log(`${store.dialect}: ${target.label}: p50 ${measured.p50} ms, p99 ${measured.p99} ms`);
      measurements.push(measured);
    }
    writes = await measureWrites(db, service.services, workspaceId);
    log(`${store.dialect}: weekly check queued in ${writes.queueSeconds} s (${writes.jobs} jobs); recording an answer p50 ${writes.answer.p50} ms, p99 ${writes.answer.p99} ms; a rank check p50 ${writes.rankCheck.p50} ms`);
  } finally {
    await service.close();
  }
  return { dialect: store.dialect, generationSeconds, rows: report.rows, storage: store.size(), measurements, writes };
}

interface WritePath {
  queueSeconds: number;
  jobs: number;
  answer: { p50: number; p99: number };
  rankCheck: { p50: number; p99: number };
}

const WRITE_SAMPLES = 300;

/**
 * The write side of a weekly check on the full history: planning and queueing the run (one job per engine call and
 * per query's rank checks, in one transaction), then answers and rank checks recorded through the recording code,
 * which keeps every pre-aggregate and latest-check table in the same transaction.
 */
async function measureWrites(db: Kysely<Database>, services: Services, workspaceId: string): Promise<WritePath> {
  const queueStarted = performance.now();
  const run = await db.transaction().execute((trx) => startCheckRun(trx, systemClock, services, workspaceId, 'manual'));
  const queueSeconds = round((performance.now() - queueStarted) / 1000);
  const jobs = await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number | string>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
  const timed = async (write: (n: number) => Promise<unknown>) => {
    const times: number[] = [];
    for (let n = 0; n < WRITE_SAMPLES; n++) {
      const started = performance.now();
      await write(n);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { p50: round(percentile(times, 0.5)), p99: round(percentile(times, 0.99)) };
  };
  const answer = await timed((n) =>
    recordEngineAnswer(db, systemClock, {
      workspaceId,
      runId: run.runId,
      queryId: trackedQuery(n).id,
      engine: 'chatgpt',
      runIndex: 1,
      answer: {
        text: `For "${trackedQuery(n).text}", ${BRAND.name} and Rival B come up most; compare pricing and support before choosing.`,
        citations: normaliseCitations([{ url: `https://${BRAND.domain}/guide` }, { url: 'https://rival-1.example/' }, { url: 'https://source-3.example/review' }]),
        model: 'gpt-5-search',
        latencyMs: 4000,
      },
      error: null,
    }),
  );
  const rankCheck = await timed((n) =>
    recordRankCheck(db, systemClock, {
      workspaceId,
      runId: run.runId,
      queryId: trackedQuery(n).id,
      searchEngine: 'google',
      organic: Array.from({ length: 30 }, (_, p) => ({ position: p + 1, url: `https://source-${p}.example/${n}`, domain: `source-${p}.example`, title: null })),
      aiOverview: { shown: true, text: 'An overview.', references: normaliseCitations([{ url: `https://${BRAND.domain}/guide` }]) },
      error: null,
    }),
  );
  return { queueSeconds, jobs: Number(jobs.n), answer, rankCheck };
}

async function main(): Promise<void> {
  const results = await onEachStore('sightline-bench-visibility-', PG_URL, log, benchStore);
  const slowest = Math.max(...results.flatMap((r) => r.measurements.map((m) => m.p99)));
  const met = slowest < AIM_P99_MS;
  process.stdout.write(`\n${readTable(results)}\n\n`);
  for (const r of results) {
    process.stdout.write(`${r.dialect}: generated in ${r.generationSeconds} s (${r.storage}); ${r.rows.engine_answers} answers, ${r.rows.answer_mentions} mentions\n`);
    process.stdout.write(
      `${r.dialect}: weekly check of ${QUERIES} queries queued in ${r.writes.queueSeconds} s (${r.writes.jobs} jobs); an answer recorded in p50 ${r.writes.answer.p50} ms, p99 ${r.writes.answer.p99} ms; a rank check p50 ${r.writes.rankCheck.p50} ms, p99 ${r.writes.rankCheck.p99} ms\n`,
    );
  }
  process.stdout.write(`slowest p99 ${slowest} ms (aim < ${AIM_P99_MS} ms)  ${met ? 'met' : 'NOT MET'}; ${CALLS} calls per read after ${WARMUP_CALLS} unmeasured, one at a time, every answer a 200\n\n`);
  process.stdout.write(`bench-visibility-result ${JSON.stringify({ queries: QUERIES, calls: CALLS, aimP99Ms: AIM_P99_MS, met, results })}\n`);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`\nbench visibility FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
