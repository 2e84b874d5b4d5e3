import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { COMPOSITE, DEFINITIONS } from './composite.js';
import { BRAND_SUBJECT } from '../checks/subjects.js';
import { groupBy, loadDaily, metricSubjects } from './daily.js';
import { scoreRows, type MetricQuery } from './score.js';
import { metricWindow, windowRecord } from './window.js';
import { isoDate } from '../../shared/time.js';
import { changeBetween } from './wilson.js';

export async function visibilityTrend(db: Kysely<Database>, query: MetricQuery) {
  const window = metricWindow(query.days, query.now);
  const subjects = await metricSubjects(db, query.workspaceId);
  const rows = await loadDaily(db, query.workspaceId, window, query.model, subjects);
  const days = [...groupBy(rows, (row) => row.day).entries()]
    .filter(([, dayRows]) => dayRows.some((row) => row.subjectId === BRAND_SUBJECT && row.checked + row.failed + row.notShown > 0))
    .sort(([a], [b]) => a - b);
  const scored = days.map(([day, dayRows]) => ({ day, ...scoreRows(dayRows, subjects) }));
  return {
    definition:
      'One point per UTC day of the window on which checks ran (days without checks have no point): that day\'s mention rate and citation rate with their 95 % Wilson intervals and sample sizes, ' +
      'mentionRateChange against the point before (up or down only when the two intervals do not overlap, else steady), ' +
      `and the composite score of that day's answers (version ${COMPOSITE.version}) where it can be computed.`,
    definitions: { mentionRate: DEFINITIONS.mentionRate, citationRate: DEFINITIONS.citationRate, score: COMPOSITE.formula },
    version: COMPOSITE.version,
    window: windowRecord(window),
    model: query.model ?? null,
    points: scored.map(({ day, components, sampleSize, score, range, basedOn }, index) => {
      const previous = scored[index - 1]?.components.mentionRate.interval;
      return {
        date: isoDate(day),
        mentionRateChange: previous === undefined ? null : changeBetween(previous, components.mentionRate.interval),
        mentionRate: components.mentionRate,
        citationRate: components.citationRate,
        score,
        scoreRange: range,
        scoreBasedOn: basedOn,
        sampleSize: { answersChecked: sampleSize.answersChecked, failedChecks: sampleSize.failedChecks, noAnswerShown: sampleSize.noAnswerShown, answersWithCitations: sampleSize.answersWithCitations },
      };
    }),
  };
}
