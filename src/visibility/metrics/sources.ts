import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { isOnDomain } from '../checks/classify.js';
import { BRAND_SUBJECT } from '../checks/subjects.js';
import { ZERO, loadDaily, metricSubjects, sumBy, type Subject } from './daily.js';
import type { MetricQuery } from './score.js';
import { rate } from './wilson.js';
import { metricWindow, windowRecord } from './window.js';

export const TOP_SOURCES = 50;

export async function citationSources(db: Kysely<Database>, query: MetricQuery) {
  const window = metricWindow(query.days, query.now);
  const subjects = await metricSubjects(db, query.workspaceId);
  let domains = db
    .selectFrom('cited_domains_daily')
    .select(['domain', (eb) => eb.fn.sum<number | string>('answers').as('answers')])
    .where('workspace_id', '=', query.workspaceId)
    .where('day', '>=', window.from)
    .where('day', '<=', window.to)
    .groupBy('domain');
  if (query.model !== undefined) domains = domains.where('engine', '=', query.model);
  const [daily, cited] = await Promise.all([loadDaily(db, query.workspaceId, window, query.model, { ...subjects, competitors: [] }), domains.execute()]);
  // Every domain of the window comes back (hundreds, a few thousand at most): counting them and picking the top ones
  // here saves the database a second pass over the window.
  const top = cited
    .map((row) => ({ domain: row.domain, answers: Number(row.answers) }))
    .sort((a, b) => b.answers - a.answers || (a.domain < b.domain ? -1 : 1))
    .slice(0, TOP_SOURCES);
  const brand = sumBy(daily, (row) => row.subjectId).get(BRAND_SUBJECT) ?? ZERO;
  const ownerOf = (domain: string): Subject | undefined => subjects.competitors.find((c) => isOnDomain(domain, c.domain));
  return {
    definition:
      "Domains cited in the AI answers of the window: for each, the answers citing it at least once, and its share = those answers / answers with at least one citation (95 % Wilson interval). " +
      `The brand's own domain (subdomains included) and tracked competitors' domains are flagged. The ${TOP_SOURCES} most cited domains, most cited first.`,
    window: windowRecord(window),
    model: query.model ?? null,
    sampleSize: { answersChecked: brand.checked, answersWithCitations: brand.answersWithCitations, distinctDomains: cited.length },
    sources: top.map(({ domain, answers }) => {
      const competitor = ownerOf(domain);
      return {
        domain,
        answers,
        share: rate(answers, brand.answersWithCitations),
        isBrand: isOnDomain(domain, subjects.brand.domain),
        competitorId: competitor?.id ?? null,
        competitorName: competitor?.name ?? null,
      };
    }),
  };
}
