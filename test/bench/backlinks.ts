/**
 * `npm run bench`, backlinks part (also on its own: `npx tsx test/bench/backlinks.ts`): generates a workspace with
 * BENCH_BACKLINKS rows (default 100,000) from some 20,000 linking domains over two years, mostly from the index and
 * the rest placed through outreach, the network or by hand, with 1,000 outreach prospects, on SQLite (a temp file)
 * and on PostgreSQL when one is reachable (BENCH_PG_URL, as the other parts), then measures p50/p99 latency of
 * list_backlinks pages (first, deep, filtered) and get_backlink_stats through the real service over REST:
 * BENCH_BACKLINKS_CALLS calls each (default 200, after 20 unmeasured), one at a time. Aim: every read under 50 ms at
 * p99. The last line of output is `bench-backlinks-result {json}`.
 */
import { migrateToLatest } from '../../db/migrate.js';
import { encodeCursor } from '../../src/backlinks/listing.js';
import { systemClock } from '../../src/clock.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { measureRead, onEachStore, type ReadMeasurement, readTable, type Row, seededRandom, serveWorkspace, setting, type Store } from './store.js';

const AIM_P99_MS = 50;
const WARMUP_CALLS = 20;
const KEYS = 20;
const ROWS = setting('BENCH_BACKLINKS', 100_000, 1_000, 2_000_000);
const CALLS = setting('BENCH_BACKLINKS_CALLS', 200, 10, 2000);
const PROSPECTS = 1_000;
const DOMAINS = Math.max(10, Math.round(ROWS / 5));
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DAY = 86_400_000;

const TABLES = {
  backlinks: {
    id: 'text',
    workspace_id: 'text',
    linking_url: 'text',
    linking_domain: 'text',
    target_url: 'text',
    anchor_text: 'text',
    dofollow: 'integer',
    domain_authority: 'real',
    authority_metric: 'text',
    status: 'text',
    source: 'text',
    discovered_at: 'bigint',
    placed_at: 'bigint',
    last_verified_at: 'bigint',
    lost_at: 'bigint',
    status_changed_at: 'bigint',
    next_check_at: 'bigint',
  },
  outreach_prospects: { id: 'text', workspace_id: 'text', domain: 'text', origin: 'text', reason: 'text', stage: 'text', stage_changed_at: 'bigint', created_at: 'bigint' },
  backlink_measures: { id: 'text', workspace_id: 'text', provider: 'text', indexed_backlinks: 'bigint', referring_domains: 'bigint', measured_at: 'bigint' },
} as const;

function log(message: string): void {
  process.stdout.write(`bench backlinks: ${message}\n`);
}

/** Ids sort by their number, so a row's place in the generation order is its place in the listing (same time: higher id first). */
const backlinkId = (n: number) => `bl_${n.toString().padStart(12, '0')}`;

interface Generated {
  /** A cursor half-way down the list, for a deep page. */
  middleCursor: string;
}

async function generate(store: Store, workspaceId: string, now: number): Promise<Generated> {
  const random = seededRandom(16);
  const writer = await store.writer(TABLES);
  const start = now - 730 * DAY;
  const step = (730 * DAY) / ROWS;
  let middleCursor = '';
  try {
    let batch: Row[] = [];
    for (let n = 0; n < ROWS; n++) {
      const domain = `site-${Math.floor(random() * DOMAINS)}.example`;
      const discoveredAt = Math.floor(start + n * step);
      const roll = random();
      // 85% from the index (one in six of them lost), the rest built: outreach, network and by hand, mostly verified.
      const source = roll < 0.85 ? 'index' : roll < 0.92 ? 'outreach' : roll < 0.97 ? 'network' : 'managed';
      const status = source === 'index' ? (random() < 1 / 6 ? 'lost' : 'discovered') : random() < 0.8 ? 'verified' : random() < 0.5 ? 'lost' : source === 'outreach' ? 'link_placed' : 'placed';
      const indexed = source === 'index';
      batch.push([
        backlinkId(n),
        workspaceId,
        `https://${domain}/post-${n}`,
        domain,
        `https://bench.example/guide-${n % 50}`,
        random() < 0.5 ? 'Bench Analytics' : `guide ${n % 50}`,
        random() < 0.7 ? 1 : 0,
        indexed ? Math.floor(random() * 1000) : null,
        indexed ? 'dataforseo_domain_rank' : null,
        status,
        source,
        discoveredAt,
        indexed ? null : discoveredAt,
        status === 'verified' ? now - Math.floor(random() * 7 * DAY) : null,
        status === 'lost' ? discoveredAt + DAY : null,
        discoveredAt,
        indexed ? null : now + Math.floor(random() * 7 * DAY),
      ]);
      if (n === Math.floor(ROWS / 2)) middleCursor = encodeCursor({ discoveredAt, id: backlinkId(n) });
      if (batch.length === 10_000) {
        await writer.insert('backlinks', batch);
        batch = [];
      }
    }
    if (batch.length > 0) await writer.insert('backlinks', batch);
    const stages = ['identified', 'identified', 'identified', 'contacted', 'replied', 'link_placed', 'rejected'];
    await writer.insert(
      'outreach_prospects',
      Array.from({ length: PROSPECTS }, (_, n) => [`prs_${n}`, workspaceId, `prospect-${n}.example`, 'ranking_page', 'ranks for a tracked query', stages[n % stages.length]!, now - n * 60_000, now - n * 60_000]),
    );
    await writer.insert('backlink_measures', [['bm_1', workspaceId, 'dataforseo', ROWS * 3, DOMAINS, now - DAY]]);
  } finally {
    await writer.close();
  }
  return { middleCursor };
}

interface DialectResult {
  dialect: string;
  generationSeconds: number;
  measurements: ReadMeasurement[];
}

async function benchStore(store: Store): Promise<DialectResult> {
  const { db } = store.handle;
  await migrateToLatest(store.handle);
  const now = systemClock.now();
  const workspaceId = await createWorkspace(db, systemClock, { name: 'Bench Analytics', websiteUrl: 'https://bench.example', plan: 'scale' });
  log(`${store.dialect}: generating ${ROWS} backlinks`);
  const started = performance.now();
  const { middleCursor } = await generate(store, workspaceId, now);
  const generationSeconds = Math.round((performance.now() - started) / 100) / 10;
  const { service, caller } = await serveWorkspace(store, workspaceId, KEYS);
  const measurements: ReadMeasurement[] = [];
  try {
    for (let i = 0; i < KEYS; i++) await caller.get('/api/v1/caller');
    const targets = [
      { label: 'list_backlinks, first page (100)', path: '/api/v1/backlinks' },
      { label: 'list_backlinks, deep page (cursor)', path: `/api/v1/backlinks?cursor=${middleCursor}` },
      { label: 'list_backlinks, status lost', path: '/api/v1/backlinks?status=lost' },
      { label: 'list_backlinks, status link_placed', path: '/api/v1/backlinks?status=link_placed' },
      { label: 'list_backlinks, 500 rows', path: '/api/v1/backlinks?limit=500' },
      { label: 'get_backlink_stats', path: '/api/v1/backlinks/stats' },
    ];
    for (const target of targets) {
      const measured = await measureRead(caller, target, WARMUP_CALLS, CALLS);
      log(`${store.dialect}: ${target.label}: p50 ${measured.p50} ms, p99 ${measured.p99} ms`);
      measurements.push(measured);
    }
  } finally {
    await service.close();
  }
  return { dialect: store.dialect, generationSeconds, measurements };
}

async function main(): Promise<void> {
  const results = await onEachStore('sightline-bench-backlinks-', PG_URL, log, benchStore);
  const slowest = Math.max(...results.flatMap((r) => r.measurements.map((m) => m.p99)));
  const met = slowest < AIM_P99_MS;
  process.stdout.write(`\n${readTable(results)}\n\n`);
  for (const r of results) process.stdout.write(`${r.dialect}: ${ROWS} backlinks generated in ${r.generationSeconds} s\n`);
  process.stdout.write(`slowest p99 ${slowest} ms (aim < ${AIM_P99_MS} ms)  ${met ? 'met' : 'NOT MET'}; ${CALLS} calls per read after ${WARMUP_CALLS} unmeasured, one at a time, every answer a 200\n\n`);
  process.stdout.write(`bench-backlinks-result ${JSON.stringify({ rows: ROWS, calls: CALLS, aimP99Ms: AIM_P99_MS, met, results })}\n`);
  if (!met) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  process.stderr.write(`\nbench backlinks FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
