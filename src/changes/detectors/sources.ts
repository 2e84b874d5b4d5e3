import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../../../db/locks.js';
import type { Database } from '../../../db/schema.js';
import { isOnDomain } from '../../visibility/checks/classify.js';
import { metricSubjects } from '../../visibility/metrics/daily.js';
import type { NoticedChange } from '../record.js';
import type { ChangeDetector } from './detector.js';
import { runsOfWorkspace } from './runAnswers.js';

/** A domain counts among the top sources only when at least this many answers of the run cite it. */
export const MIN_CITING_ANSWERS = 3;
/** The run before's sources a domain must not have been among to be new. */
export const PREVIOUS_TOP = 20;

interface CitedDomain {
  domain: string;
  answers: number;
}

/**
 * The run's most cited domains (the caller checked the run is the workspace's): per domain, the answers citing it at least once (each answer's citation list read in
 * the database, grouped by domain), most cited first, ties by name.
 */
async function topDomains(db: Kysely<Database>, runId: string, limit: number): Promise<CitedDomain[]> {
  const rows = isPostgres(db)
    ? await sql<{ domain: string; answers: number | string }>`
        select c.value->>'domain' as domain, count(distinct a.id) as answers
        from engine_answers a cross join lateral json_array_elements(a.citations::json) as c(value)
        where a.run_id = ${runId} and a.citations <> '[]'
        group by 1 order by answers desc, domain limit ${limit}`.execute(db)
    : await sql<{ domain: string; answers: number | string }>`
        select json_extract(c.value, '$.domain') as domain, count(distinct a.id) as answers
        from engine_answers a, json_each(a.citations) as c
        where a.run_id = ${runId} and a.citations <> '[]'
        group by 1 order by answers desc, domain limit ${limit}`.execute(db);
  return rows.rows.map((row) => ({ domain: row.domain, answers: Number(row.answers) }));
}

/**
 * source.new: a domain among this run's N most cited sources (N is the rule's threshold, 10 by default; cited by at
 * least 3 answers) that was not among the 20 most cited of the run before. The brand's own domains are left out: they
 * are the brand's citations, not a new source.
 */
export const sourceDetector: ChangeDetector = {
  name: 'sources',
  async detect({ db, workspaceId, runId, previousRunId, rules }) {
    if (previousRunId === null) return [];
    // A whole number of places (the rule's threshold is stored as a real).
    const top = Math.floor(rules['source.new'].threshold ?? 10);
    if (!(await runsOfWorkspace(db, workspaceId, [runId, previousRunId]))) return [];
    const subjects = await metricSubjects(db, workspaceId);
    const [now, before] = await Promise.all([topDomains(db, runId, top), topDomains(db, previousRunId, PREVIOUS_TOP)]);
    const known = new Set(before.map((source) => source.domain));
    return now.flatMap((source, index): NoticedChange[] => {
      if (source.answers < MIN_CITING_ANSWERS || known.has(source.domain)) return [];
      if (subjects.brand.domain !== '' && isOnDomain(source.domain, subjects.brand.domain)) return [];
      const competitor = subjects.competitors.find((c) => c.domain !== '' && isOnDomain(source.domain, c.domain));
      return [
        {
          kind: 'source.new',
          dedupeKey: `${runId}:${source.domain}`,
          title: `${source.domain} is a new top source: cited by ${source.answers} answers, number ${index + 1} this run`,
          runId,
          details: { domain: source.domain, answers: source.answers, rank: index + 1, top, competitorId: competitor?.id ?? null, runId, previousRunId },
        },
      ];
    });
  },
};
