/**
 * The real service for the counter bench's collect load, in its own process: a fresh SQLite file in a temp dir, one
 * workspace whose website is https://bench.example, the client address read from X-Forwarded-For (TRUST_PROXY=loopback,
 * as behind a proxy on the same machine) and the per-site event limit raised so that the bench's one site can take all
 * of the load; the per-address limit keeps its default, since every simulated visitor has its own address and sends a
 * handful of events.
 *
 * Errors (a counter batch not written) are logged to stderr. Prints one JSON line: `{ url, site, origin }`. Then, for each line `stored` on stdin, writes every event still waiting
 * in the ingest and prints one JSON line with what the database holds for the site (StoredTotals).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { openDatabase } from '../../db/database.js';
import { siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { createService } from '../../src/compositionRoot.js';
import { announce, stopWithParent } from './child.js';

const BENCH_ORIGIN = 'https://bench.example';

export interface StoredTotals {
  pageViews: number;
  pagePageViews: number;
  weekPageViews: number;
  engagedViews: number;
  engagedMs: number;
  leads: number;
}

const dir = mkdtempSync(join(tmpdir(), 'sightline-bench-counter-'));
const removeDir = () => rmSync(dir, { recursive: true, force: true });

try {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: join(dir, 'bench.db'),
    TRUST_PROXY: 'loopback',
    COUNTER_SITE_EVENTS_PER_MINUTE: '100000000',
    // No balancer polls it, so its stop need not accept connections for a readiness delay.
    SHUTDOWN_READINESS_DELAY_MS: '0',
  });
  const database = openDatabase(config.databaseUrl);
  const service = await createService({ config, database, clock: systemClock, logger: pino({ level: 'error' }, pino.destination(2)) });
  const { db } = database;
  const workspaceId = await createWorkspace(db, systemClock, { name: 'Bench Co', websiteUrl: BENCH_ORIGIN, plan: 'scale' });
  const site = await siteIdOf(db, workspaceId);

  const stored = async (): Promise<StoredTotals> => {
    await service.counterIngest.flush();
    const [days, pages, weeks, leads] = await Promise.all([
      db
        .selectFrom('counter_days')
        .select((eb) => [eb.fn.sum<number | string>('pageviews').as('pageviews'), eb.fn.sum<number | string>('engaged_views').as('engaged_views'), eb.fn.sum<number | string>('engaged_ms').as('engaged_ms')])
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow(),
      db.selectFrom('counter_page_days').select((eb) => eb.fn.sum<number | string>('pageviews').as('pageviews')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow(),
      db.selectFrom('counter_page_weeks').select((eb) => eb.fn.sum<number | string>('pageviews').as('pageviews')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow(),
      db.selectFrom('leads').select((eb) => eb.fn.countAll<number | string>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow(),
    ]);
    return {
      pageViews: Number(days.pageviews ?? 0),
      pagePageViews: Number(pages.pageviews ?? 0),
      weekPageViews: Number(weeks.pageviews ?? 0),
      engagedViews: Number(days.engaged_views ?? 0),
      engagedMs: Number(days.engaged_ms ?? 0),
      leads: Number(leads.n),
    };
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = line.trim();
    if (command === 'cpu') {
      const { user, system } = process.cpuUsage();
      announce({ cpuMs: (user + system) / 1000 });
    } else if (command === 'stored') {
      stored().then(
        (totals) => announce({ ...totals }),
        (error: unknown) => announce({ error: error instanceof Error ? error.message : String(error) }),
      );
    }
  });

  const url = await service.listen();
  stopWithParent(async () => {
    try {
      await Promise.race([service.close(), new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
    } finally {
      removeDir();
    }
  });
  announce({ url, site, origin: BENCH_ORIGIN });
} catch (error) {
  removeDir();
  throw error;
}
