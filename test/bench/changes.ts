/**
 * `npm run bench`, changes part (also on its own: `npx tsx test/bench/changes.ts`): a workspace with
 * BENCH_CHANGES_QUERIES tracked queries (default 5,000), 10 competitors, six engines asked BENCH_CHANGES_RUNS_PER_QUERY
 * times per query and run (default: CHECK_RUNS_PER_QUERY, else 1) and a Google rank check per query, over
 * BENCH_CHANGES_RUNS weekly runs (default 6), generated straight into the tables on SQLite (a temp file) and on
 * PostgreSQL when one is reachable (BENCH_PG_URL, else TEST_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test, in a fresh schema dropped afterwards). Then the real detect_changes job runs
 * for every run in order, as the worker would after each run closed, and each run's detection is timed: every
 * detector, each in its own transaction, and the recording of what it found. Aim: each run's changes within 60 s.
 *
 * The data moves enough for every run-based kind to be found: a quarter of the cells change whether they cite the
 * brand halfway through, one engine's mention rate falls in the last run, a competitor gains, a new domain takes a
 * top place, and Google positions wander. The last line of output is `bench-changes-result {json}`.
 */
import { pino } from 'pino';
import { migrateToLatest } from '../../db/migrate.js';
import { detectChangesJob } from '../../src/changes/detectJob.js';
import { systemClock } from '../../src/clock.js';
import { ENGINE_NAMES } from '../../src/visibility/engines/engine.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { offlineServices } from '../support/offlineServices.js';
import { onEachStore, round, seededRandom, setting, type Row, type Store } from './store.js';
import { trackedQuery, VISIBILITY_TABLES } from './visibilityData.js';

const AIM_SECONDS = 60;
const QUERIES = setting('BENCH_CHANGES_QUERIES', 5000, 50, 20_000);
const RUNS = setting('BENCH_CHANGES_RUNS', 6, 2, 52);
const RUNS_PER_QUERY = setting('BENCH_CHANGES_RUNS_PER_QUERY', Number(process.env.CHECK_RUNS_PER_QUERY ?? 1), 1, 10);
const COMPETITORS = 10;
const PG_URL = process.env.BENCH_PG_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BRAND = { name: 'Bench Changes', domain: 'changes.example' };
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const TABLES = {
  queries: VISIBILITY_TABLES.queries,
  competitors: VISIBILITY_TABLES.competitors,
  check_runs: VISIBILITY_TABLES.check_runs,
  engine_answers: VISIBILITY_TABLES.engine_answers,
  answer_mentions: VISIBILITY_TABLES.answer_mentions,
  rank_checks: VISIBILITY_TABLES.rank_checks,
};

function log(message: string): void {
  process.stdout.write(`bench changes: ${message}\n`);
}

const id = (prefix: string, n: number) => `${prefix}_chg${String(n).padStart(9, '0')}`;

/** Writes the runs; returns their ids, oldest first, and the rows written. */
async function generate(store: Store, workspaceId: string, now: number): Promise<{ runIds: string[]; rows: number }> {
  const rand = seededRandom(20261129);
  const writer = await store.writer(TABLES);
  let rows = 0;
  const write = async (table: keyof typeof TABLES, batch: Row[]) => {
    rows += batch.length;
    await writer.insert(table, batch);
  };
  try {
    const start = now - RUNS * WEEK_MS;
    const queries = Array.from({ length: QUERIES }, (_, n) => trackedQuery(n));
    await write('queries', queries.map((q) => [q.id, workspaceId, q.text, q.text, 'user', null, null, start - DAY_MS]));
    const competitors = Array.from({ length: COMPETITORS }, (_, n) => ({ id: id('cmp', n), name: `Rival ${String.fromCharCode(65 + n)}`, domain: `rival-${n}.example` }));
    await write('competitors', competitors.map((c) => [c.id, workspaceId, c.name, `https://${c.domain}`, c.domain, '[]', null, start - DAY_MS, null]));
    const sources = Array.from({ length: 300 }, (_, n) => `source-${n}.example`);
    // Each cell's chance of citing the brand; a quarter of the cells swap theirs halfway.
    const cellRate = Array.from({ length: QUERIES * ENGINE_NAMES.length }, () => (rand() < 0.3 ? 0.9 : 0.05));
    const swaps = cellRate.map(() => rand() < 0.25);
    const positions = queries.map(() => (rand() < 0.4 ? null : 1 + Math.floor(rand() * 30)));
    const runIds: string[] = [];
    let answerNumber = 0;
    for (let run = 0; run < RUNS; run++) {
      const runId = id('run', run);
      runIds.push(runId);
      const runStart = start + run * WEEK_MS;
      const last = run === RUNS - 1;
      const answers: Row[] = [];
      const mentions: Row[] = [];
      let cell = 0;
      for (const query of queries) {
        for (const engine of ENGINE_NAMES) {
          const rate = swaps[cell]! && run >= RUNS / 2 ? 0.95 - cellRate[cell]! : cellRate[cell]!;
          cell++;
          for (let index = 1; index <= RUNS_PER_QUERY; index++) {
            const answerId = id('ans', answerNumber++);
            const failed = rand() < 0.03;
            const notShown = !failed && (engine === 'google_ai_overview' || engine === 'copilot') && rand() < 0.3;
            const domains = new Set<string>();
            const citesBrand = !failed && !notShown && rand() < rate;
            if (citesBrand) domains.add(BRAND.domain);
            if (!failed && !notShown) {
              if (last && rand() < 0.2) domains.add('newcomer.example');
              while (domains.size < 3) domains.add(sources[Math.floor(Math.pow(rand(), 3) * sources.length)]!);
            }
            const mentionRate = last && engine === 'claude' ? 0.05 : 0.3;
            const result = (named: boolean, cited: boolean) => (failed ? 'failed' : notShown ? 'not_shown' : cited ? 'cited' : named ? 'mentioned' : 'none');
            const brandResult = result(rand() < mentionRate, citesBrand);
            answers.push([
              answerId,
              workspaceId,
              runId,
              query.id,
              engine,
              index,
              failed ? null : 'bench-model',
              null,
              JSON.stringify([...domains].map((domain, rank) => ({ url: `https://${domain}/${query.id}`, domain, title: null, rank: rank + 1 }))),
              null,
              failed ? 'timeout' : null,
              null,
              brandResult,
              runStart + answerNumber,
            ]);
            mentions.push([answerId, workspaceId, 'brand', brandResult, null, null, null, null]);
            competitors.forEach((competitor, c) => {
              const gains = c === 0 && run >= RUNS - 2 ? 0.8 : 0.1;
              mentions.push([answerId, workspaceId, competitor.id, result(rand() < gains, false), null, null, null, null]);
            });
          }
        }
      }
      const planned = answers.length + QUERIES;
      await write('check_runs', [[runId, workspaceId, 'schedule', 'done', JSON.stringify(ENGINE_NAMES), RUNS_PER_QUERY, planned, planned, 0, runStart, runStart + DAY_MS / 2]]);
      await write('engine_answers', answers);
      await write('answer_mentions', mentions);
      const ranks: Row[] = queries.map((query, n) => {
        const failed = rand() < 0.02;
        if (!failed && rand() < 0.3) positions[n] = rand() < 0.2 ? null : 1 + Math.floor(rand() * 30);
        const position = failed ? null : positions[n]!;
        return [id('rnk', run * QUERIES + n), workspaceId, runId, query.id, 'google', position, position === null ? null : `https://${BRAND.domain}/${n}`, '[]', null, null, failed ? 'provider_error' : null, null, runStart + DAY_MS / 4 + n];
      });
      await write('rank_checks', ranks);
    }
    return { runIds, rows };
  } finally {
    await writer.close();
  }
}

interface DialectResult {
  dialect: string;
  generationSeconds: number;
  rows: number;
  /** Per run, oldest first: seconds to detect and record its changes, and what was recorded by detector. */
  runs: Array<{ seconds: number; recorded: Record<string, number> }>;
  slowestSeconds: number;
}

async function benchStore(store: Store): Promise<DialectResult> {
  const { db } = store.handle;
  await migrateToLatest(store.handle);
  const now = systemClock.now();
  const workspaceId = await createWorkspace(db, systemClock, { name: BRAND.name, websiteUrl: `https://${BRAND.domain}`, plan: 'scale' });
  log(`${store.dialect}: generating ${RUNS} runs of ${QUERIES} queries on ${ENGINE_NAMES.length} engines, ${RUNS_PER_QUERY} answer(s) per query and engine`);
  const started = performance.now();
  const { runIds, rows } = await generate(store, workspaceId, now);
  const generationSeconds = round((performance.now() - started) / 1000);
  log(`${store.dialect}: generated ${rows} rows in ${generationSeconds} s`);
  const deps = { db, clock: systemClock, services: offlineServices(systemClock), logger: pino({ level: 'silent' }), progress: async () => {}, usage: { add: () => {} } };
  const runs: DialectResult['runs'] = [];
  for (const runId of runIds) {
    const job = { id: `job_${runId}`, workspaceId, kind: 'detect_changes' as const, subjectId: runId, payload: { runId }, attempt: 1, maxAttempts: 3, leaseToken: 'bench' };
    const began = performance.now();
    const result = await detectChangesJob.run(job, deps);
    const seconds = round((performance.now() - began) / 1000, 2);
    const recorded = result.recorded as Record<string, number>;
    runs.push({ seconds, recorded });
    log(`${store.dialect}: ${runId} compared in ${seconds} s: ${Object.entries(recorded).map(([name, n]) => `${name} ${n}`).join(', ')}`);
  }
  return { dialect: store.dialect, generationSeconds, rows, runs, slowestSeconds: Math.max(...runs.map((r) => r.seconds)) };
}

async function main(): Promise<void> {
  const results = await onEachStore('sightline-bench-changes-', PG_URL, log, benchStore);
  const slowest = Math.max(...results.map((r) => r.slowestSeconds));
  const met = slowest < AIM_SECONDS;
  process.stdout.write('\n');
  for (const r of results) {
    const found = r.runs.reduce((sum, run) => sum + Object.values(run.recorded).reduce((a, b) => a + b, 0), 0);
    process.stdout.write(`${r.dialect}: ${QUERIES} queries, ${RUNS} runs (${r.rows} rows generated in ${r.generationSeconds} s); changes per run in ${r.runs.map((run) => run.seconds).join(', ')} s; ${found} changes recorded\n`);
  }
  process.stdout.write(`slowest run ${slowest} s (aim < ${AIM_SECONDS} s)  ${met ? 'met' : 'NOT MET'}\n\n`);
  process.stdout.write(`bench-changes-result ${JSON.stringify({ queries: QUERIES, runs: RUNS, runsPerQuery: RUNS_PER_QUERY, aimSeconds: AIM_SECONDS, met, results })}\n`);
  if (!met) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  process.stderr.write(`\nbench changes FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
