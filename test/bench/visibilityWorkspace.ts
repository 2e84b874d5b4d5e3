/**
 * The visibility bench's workspace, shared by the parts that read it (visibility.ts through REST, dashboard.ts through
 * the dashboard's pages): generated into a store, with published articles for the tracked queries, and its
 * pre-aggregates checked against its answers.
 */
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../../db/migrate.js';
import type { Database } from '../../db/schema.js';
import { systemClock } from '../../src/clock.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { round, type Store } from './store.js';
import { ARTICLES, articleUrl, generateVisibility, trackedQuery, VISIBILITY_TABLES, type GenerationReport } from './visibilityData.js';

export const BRAND = { name: 'Bench Analytics', domain: 'bench.example' };
/**
 * Every engine and the SERP provider configured, so that the reports read what a fully configured workspace has (with
 * nothing configured, Google versus AI has no checks to read). The worker is off: no provider is ever called.
 */
export const ALL_PROVIDERS = {
  ENGINE_CHATGPT_API_KEY: 'bench',
  ENGINE_PERPLEXITY_API_KEY: 'bench',
  ENGINE_GEMINI_API_KEY: 'bench',
  ENGINE_CLAUDE_API_KEY: 'bench',
  ENGINE_COPILOT_API_KEY: 'bench',
  SERP_BASE_URL: 'http://127.0.0.1:9',
  SERP_LOGIN: 'bench',
  SERP_PASSWORD: 'bench',
};


/** The generated pre-aggregates must say what the answers say, or the figures measure made-up data. */
async function checkAggregates(db: Kysely<Database>, workspaceId: string): Promise<void> {
  const [answers, daily] = await Promise.all([
    db
      .selectFrom('engine_answers')
      .select(['brand_result', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('workspace_id', '=', workspaceId)
      .groupBy('brand_result')
      .execute(),
    db
      .selectFrom('visibility_daily')
      .select((eb) => [eb.fn.sum<number | string>('answers').as('answers'), eb.fn.sum<number | string>('cited').as('cited'), eb.fn.sum<number | string>('mentioned').as('mentioned'), eb.fn.sum<number | string>('failed').as('failed'), eb.fn.sum<number | string>('not_shown').as('notShown')])
      .where('workspace_id', '=', workspaceId)
      .where('subject_id', '=', 'brand')
      .executeTakeFirstOrThrow(),
  ]);
  const count = (result: string) => Number(answers.find((row) => row.brand_result === result)?.n ?? 0);
  const expected = { answers: count('cited') + count('mentioned') + count('none'), cited: count('cited'), mentioned: count('mentioned'), failed: count('failed'), notShown: count('not_shown') };
  const actual = { answers: Number(daily.answers), cited: Number(daily.cited), mentioned: Number(daily.mentioned), failed: Number(daily.failed), notShown: Number(daily.notShown) };
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`generated aggregates ${JSON.stringify(actual)} disagree with the answers ${JSON.stringify(expected)}`);
}

export interface BenchWorkspace {
  workspaceId: string;
  report: GenerationReport;
  generationSeconds: number;
}

/** Migrates the store and generates the workspace with `queries` tracked queries (about 312 answers each) into it. */
export async function generateBenchWorkspace(store: Store, queries: number, log: (message: string) => void): Promise<BenchWorkspace> {
  const { db } = store.handle;
  await migrateToLatest(store.handle);
  const now = systemClock.now();
  const workspaceId = await createWorkspace(db, systemClock, { name: BRAND.name, websiteUrl: `https://${BRAND.domain}`, plan: 'scale' });

  log(`${store.dialect}: generating ${queries} tracked queries`);
  const started = performance.now();
  const writer = await store.writer(VISIBILITY_TABLES);
  let report: GenerationReport;
  try {
    report = await generateVisibility(writer, { workspaceId, brandName: BRAND.name, brandDomain: BRAND.domain, now }, queries);
  } finally {
    await writer.close();
  }
  for (let n = 0; n < Math.min(ARTICLES, queries); n++) {
    const query = trackedQuery(n);
    const articleId = await insertPlannedArticle(db, systemClock, { workspaceId, keyword: query.text, title: `A guide: ${query.text}`, scheduledAt: now - 30 * 86_400_000, language: 'en', queryId: query.id });
    await db.updateTable('articles').set({ status: 'published', url: articleUrl(BRAND.domain, n), published_at: now - 30 * 86_400_000 }).where('id', '=', articleId).execute();
  }
  const generationSeconds = round((performance.now() - started) / 1000);
  await checkAggregates(db, workspaceId);
  log(`${store.dialect}: generated in ${generationSeconds} s: ${Object.entries(report.rows).map(([table, n]) => `${table} ${n}`).join(', ')}`);
  return { workspaceId, report, generationSeconds };
}
