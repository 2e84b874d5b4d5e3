import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { domainOf } from '../../shared/urls.js';
import { BRAND_SUBJECT } from '../checks/subjects.js';
import { metricWindow, windowRecord } from '../metrics/window.js';
import { competitorRecord, competitorUsage, NO_COUNTS, subjectNumbers, type SubjectCounts } from './competitors.js';

/** Per subject, the visibility_daily sums of the window: at most 30 days x 6 engines x 11 subjects rows are read. */
async function countsBySubject(db: Kysely<Database>, workspaceId: string, subjectIds: string[], from: number, to: number): Promise<Map<string, SubjectCounts>> {
  const rows = await db
    .selectFrom('visibility_daily')
    .select((eb) => [
      'subject_id',
      eb.fn.sum<number | string>('answers').as('answers'),
      eb.fn.sum<number | string>('answers_with_citations').as('answers_with_citations'),
      eb.fn.sum<number | string>('cited').as('cited'),
      eb.fn.sum<number | string>('mentioned').as('mentioned'),
      eb.fn.sum<number | string>('failed').as('failed'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .where('subject_id', 'in', subjectIds)
    .groupBy('subject_id')
    .execute();
  return new Map(
    rows.map((r) => [
      r.subject_id,
      {
        answers: Number(r.answers),
        answersWithCitations: Number(r.answers_with_citations),
        cited: Number(r.cited),
        mentioned: Number(r.mentioned),
        failed: Number(r.failed),
      },
    ]),
  );
}

/** The tracked competitors with their last-30-days numbers and positioning, and the brand's numbers beside them. */
export async function listCompetitors(db: Kysely<Database>, workspaceId: string, now: number, writerConfigured: boolean) {
  const window = metricWindow('30', now);
  const [rows, brand, usage] = await Promise.all([
    db.selectFrom('competitors').selectAll().where('workspace_id', '=', workspaceId).where('removed_at', 'is', null).orderBy('created_at').orderBy('id').execute(),
    db
      .selectFrom('brands')
      .innerJoin('workspaces', 'workspaces.id', 'brands.workspace_id')
      .select(['brands.name', 'workspaces.website_url'])
      .where('brands.workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow(),
    competitorUsage(db, workspaceId),
  ]);
  const counts = await countsBySubject(db, workspaceId, [BRAND_SUBJECT, ...rows.map((r) => r.id)], window.from, window.to);
  const brandDomain = domainOf(brand.website_url) ?? brand.website_url;
  return {
    window: windowRecord(window),
    brand: { name: brand.name, websiteUrl: brand.website_url, ...subjectNumbers(brandDomain, counts.get(BRAND_SUBJECT) ?? NO_COUNTS) },
    competitors: rows.map((row) => competitorRecord(row, subjectNumbers(row.domain, counts.get(row.id) ?? NO_COUNTS), writerConfigured)),
    usage,
  };
}
