import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { labelled, mentions } from './composite.js';
import { BRAND_SUBJECT } from '../checks/subjects.js';
import { ZERO, loadDaily, metricSubjects, sumBy, type Counts } from './daily.js';
import type { MetricQuery } from './score.js';
import { rate, round4 } from './wilson.js';
import { metricWindow, windowRecord } from './window.js';

function sentimentOf(counts: Counts) {
  const withSentiment = labelled(counts);
  return {
    answersNaming: mentions(counts),
    answersWithSentiment: withSentiment,
    positive: rate(counts.positive, withSentiment),
    neutral: rate(counts.neutral, withSentiment),
    negative: rate(counts.negative, withSentiment),
    meanScore: withSentiment > 0 ? round4(counts.sentimentScoreSum / withSentiment) : null,
  };
}

export async function sentiment(db: Kysely<Database>, query: MetricQuery) {
  const window = metricWindow(query.days, query.now);
  const subjects = await metricSubjects(db, query.workspaceId);
  const bySubject = sumBy(await loadDaily(db, query.workspaceId, window, query.model, subjects), (row) => row.subjectId);
  const brand = bySubject.get(BRAND_SUBJECT) ?? ZERO;
  return {
    definition:
      'How AI answers frame the brand: over the answers that cite or mention it and have a sentiment (the writer model reads the passage around the first mention: ' +
      'positive, neutral or negative, and a score 0-100 where 50 is neutral), the share of each label with its 95 % Wilson interval, and the mean score. ' +
      'An answer that does not name the brand has no sentiment; answers checked while no writer model was configured have none either (answersNaming - answersWithSentiment).',
    window: windowRecord(window),
    model: query.model ?? null,
    sampleSize: { answersChecked: brand.checked, failedChecks: brand.failed, noAnswerShown: brand.notShown, answersNaming: mentions(brand), answersWithSentiment: labelled(brand) },
    brand: sentimentOf(brand),
    competitors: subjects.competitors.map((competitor) => ({ competitorId: competitor.id, name: competitor.name, ...sentimentOf(bySubject.get(competitor.id) ?? ZERO) })),
  };
}
