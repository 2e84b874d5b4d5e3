import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { DEFINITIONS, mentions } from './composite.js';
import { BRAND_SUBJECT } from '../checks/subjects.js';
import { ZERO, loadDaily, metricSubjects, sumBy } from './daily.js';
import type { MetricQuery } from './score.js';
import { rate } from './wilson.js';
import { metricWindow, windowRecord } from './window.js';

export async function shareOfVoice(db: Kysely<Database>, query: MetricQuery) {
  const window = metricWindow(query.days, query.now);
  const subjects = await metricSubjects(db, query.workspaceId);
  const bySubject = sumBy(await loadDaily(db, query.workspaceId, window, query.model, subjects), (row) => row.subjectId);
  const everyone = [subjects.brand, ...subjects.competitors];
  const totalMentions = everyone.reduce((sum, subject) => sum + mentions(bySubject.get(subject.id) ?? ZERO), 0);
  const brand = bySubject.get(BRAND_SUBJECT) ?? ZERO;
  return {
    definition:
      `Share of voice: ${DEFINITIONS.shareOfVoice}. Each subject's share is its answers naming it / the sum over the brand and every tracked competitor, ` +
      'with a 95 % Wilson interval. Removed competitors are left out; a competitor added during the window counts from the day it was added.',
    window: windowRecord(window),
    model: query.model ?? null,
    sampleSize: { answersChecked: brand.checked, failedChecks: brand.failed, noAnswerShown: brand.notShown, totalMentions, competitorsTracked: subjects.competitors.length },
    subjects: everyone.map((subject) => {
      const counts = bySubject.get(subject.id) ?? ZERO;
      return {
        subjectId: subject.id,
        name: subject.name,
        isBrand: subject.id === BRAND_SUBJECT,
        domain: subject.domain,
        answersNaming: mentions(counts),
        cited: counts.cited,
        mentioned: counts.mentioned,
        share: rate(mentions(counts), totalMentions),
      };
    }),
  };
}
