import type { Kysely } from 'kysely';
import type { Database, EngineName } from '../../../db/schema.js';
import { ENGINE_NAMES } from '../engines/engine.js';
import { COMPOSITE, DEFINITIONS, componentsOf, compositeScore, labelled, mentions } from './composite.js';
import { BRAND_SUBJECT } from '../checks/subjects.js';
import { ZERO, groupBy, loadAgreement, loadDaily, metricSubjects, sumBy, type DailyRow, type Subjects } from './daily.js';
import { changeBetween, rate } from './wilson.js';
import { metricWindow, windowRecord, type MetricDays, type MetricWindow } from './window.js';
import { DAY_MS } from '../../shared/time.js';

export interface MetricQuery {
  workspaceId: string;
  now: number;
  days: MetricDays;
  model?: EngineName | undefined;
}

/** The composite and its components over some rows (a window, one engine, one day). */
export function scoreRows(rows: readonly DailyRow[], subjects: Subjects) {
  const bySubject = sumBy(rows, (row) => row.subjectId);
  const brand = bySubject.get(BRAND_SUBJECT) ?? ZERO;
  const competitorMentions = subjects.competitors.reduce((sum, c) => sum + mentions(bySubject.get(c.id) ?? ZERO), 0);
  const components = componentsOf(brand, competitorMentions);
  return {
    ...compositeScore(components, subjects.competitors.length),
    components,
    sampleSize: {
      answersChecked: brand.checked,
      failedChecks: brand.failed,
      noAnswerShown: brand.notShown,
      answersWithCitations: brand.answersWithCitations,
      answersNamingBrand: mentions(brand),
      answersWithSentiment: labelled(brand),
      competitorMentions,
    },
  };
}

export async function visibilityScore(db: Kysely<Database>, configured: readonly EngineName[], query: MetricQuery) {
  const window = metricWindow(query.days, query.now);
  const subjects = await metricSubjects(db, query.workspaceId);
  const before: MetricWindow = { days: window.days, from: window.from - window.days * DAY_MS, to: window.from - DAY_MS };
  const [rows, previousRows, agreement] = await Promise.all([
    loadDaily(db, query.workspaceId, window, query.model, subjects),
    loadDaily(db, query.workspaceId, before, query.model, subjects),
    loadAgreement(db, query.workspaceId, window, query.model),
  ]);
  const previous = scoreRows(previousRows, subjects).components.mentionRate;
  const byEngine = groupBy(rows, (row) => row.engine);
  const overall = scoreRows(rows, subjects);
  const agreementOf = (cells: Array<{ cells: number; agreeing: number }>) =>
    rate(
      cells.reduce((sum, c) => sum + c.agreeing, 0),
      cells.reduce((sum, c) => sum + c.cells, 0),
    );
  return {
    definition: `A composite 0-100 of how visible the brand is in AI answers, version ${COMPOSITE.version}. ${COMPOSITE.formula}`,
    version: COMPOSITE.version,
    formula: COMPOSITE.formula,
    weights: COMPOSITE.weights,
    definitions: DEFINITIONS,
    window: windowRecord(window),
    model: query.model ?? null,
    competitorsTracked: subjects.competitors.length,
    ...overall,
    agreement: agreementOf([...agreement.values()]),
    previous: { window: windowRecord(before), mentionRate: previous, mentionRateChange: changeBetween(previous.interval, overall.components.mentionRate.interval) },
    byEngine: (query.model === undefined ? ENGINE_NAMES : [query.model]).map((engine) => {
      const { components, sampleSize, score, range, reason, missing } = scoreRows(byEngine.get(engine) ?? [], subjects);
      const neverChecked = sampleSize.answersChecked === 0 && sampleSize.failedChecks === 0 && sampleSize.noAnswerShown === 0;
      return {
        engine,
        configured: configured.includes(engine),
        score,
        range,
        reason: neverChecked && !configured.includes(engine) ? 'not configured: this engine is not checked' : reason,
        missing,
        components,
        agreement: agreementOf(agreement.has(engine) ? [agreement.get(engine)!] : []),
        sampleSize: { answersChecked: sampleSize.answersChecked, failedChecks: sampleSize.failedChecks, noAnswerShown: sampleSize.noAnswerShown },
      };
    }),
  };
}

