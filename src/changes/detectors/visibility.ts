import type { EngineName } from '../../../db/schema.js';
import { ENGINE_LABELS } from '../../visibility/engines/engine.js';
import { componentsOf, compositeScore, mentions } from '../../visibility/metrics/composite.js';
import { metricSubjects } from '../../visibility/metrics/daily.js';
import { changeBetween, type Interval, type Rate } from '../../visibility/metrics/wilson.js';
import type { NoticedChange } from '../record.js';
import type { ChangeDetector } from './detector.js';
import { allEngines, percentText, runCounts, type EngineCounts } from './runAnswers.js';

type RateMetric = 'mentionRate' | 'citationRate';

const METRIC_NAMES: Record<RateMetric | 'score', string> = { mentionRate: 'Mention rate', citationRate: 'Citation rate', score: 'Visibility score' };

function scoreOf(counts: EngineCounts, competitorsTracked: number) {
  const competitorMentions = [...counts.competitors.values()].reduce((sum, named) => sum + named, 0);
  const components = componentsOf(counts.brand, competitorMentions);
  return { components, composite: compositeScore(components, competitorsTracked) };
}

const VERBS = { 'visibility.rose': 'rose', 'visibility.fell': 'fell' } as const;

const rateDetails = (value: Rate) => ({ rate: value.rate, interval: value.interval, count: value.count, of: value.of });
const where = (engine: EngineName | null) => (engine === null ? ' (all engines)' : ` on ${ENGINE_LABELS[engine]}`);

/**
 * visibility.rose and visibility.fell: the brand's mention rate, citation rate and composite score, over all engines and
 * per engine, this run against the run before on the cells both answered. A move is a change only when the 95 % Wilson
 * intervals do not overlap (for the score: the ranges, each component at the ends of its interval) and it is at least
 * the rule's threshold (percentage points of a rate, points of the score).
 */
export const visibilityDetector: ChangeDetector = {
  name: 'visibility',
  async detect({ db, workspaceId, runId, previousRunId, rules }) {
    if (previousRunId === null) return [];
    const subjects = await metricSubjects(db, workspaceId);
    const [after, before] = await Promise.all([runCounts(db, workspaceId, runId, previousRunId, subjects), runCounts(db, workspaceId, previousRunId, runId, subjects)]);
    const scopes: Array<[EngineName | null, EngineCounts, EngineCounts]> = [[null, allEngines(before), allEngines(after)]];
    for (const [engine, counts] of after) {
      const earlier = before.get(engine);
      if (earlier !== undefined) scopes.push([engine, earlier, counts]);
    }
    const changes: NoticedChange[] = [];
    /** Up or down beyond the noise and by at least the rule's threshold (`move` in its unit): the kind to record. */
    const kindOf = (direction: ReturnType<typeof changeBetween>, move: number) => {
      if (direction !== 'up' && direction !== 'down') return null;
      const kind = direction === 'up' ? 'visibility.rose' : 'visibility.fell';
      return Math.abs(move) < (rules[kind].threshold ?? 0) ? null : kind;
    };
    const report = (kind: 'visibility.rose' | 'visibility.fell', engine: EngineName | null, metric: RateMetric | 'score', title: string, details: Record<string, unknown>) => {
      changes.push({ kind, dedupeKey: `${runId}:${metric}:${engine ?? 'all'}`, title, engine, runId, details: { metric, engine, ...details, runId, previousRunId } });
    };
    for (const [engine, earlier, later] of scopes) {
      const was = scoreOf(earlier, subjects.competitors.length);
      const now = scoreOf(later, subjects.competitors.length);
      for (const metric of ['mentionRate', 'citationRate'] as const) {
        const [from, to] = [was.components[metric], now.components[metric]];
        // Intervals exist only for rates measured in both runs; then both rates do too.
        const kind = kindOf(changeBetween(from.interval, to.interval), ((to.rate ?? 0) - (from.rate ?? 0)) * 100);
        if (kind === null) continue;
        report(kind, engine, metric, `${METRIC_NAMES[metric]}${where(engine)} ${VERBS[kind]} from ${percentText(from.rate)} to ${percentText(to.rate)}`, {
          before: rateDetails(from),
          after: rateDetails(to),
        });
      }
      const [from, to] = [was.composite, now.composite];
      // Scores built from different components are different measures: compared only when both rest on the same ones.
      if (from.score === null || to.score === null || from.basedOn.join() !== to.basedOn.join()) continue;
      const kind = kindOf(changeBetween(from.range, to.range), to.score - from.score);
      if (kind === null) continue;
      const score = (value: { score: number | null; range: Interval | null }, counts: EngineCounts) => ({
        score: value.score,
        range: value.range,
        answers: counts.brand.checked,
        answersNamingBrand: mentions(counts.brand),
      });
      report(kind, engine, 'score', `${METRIC_NAMES.score}${where(engine)} ${VERBS[kind]} from ${from.score.toFixed(1)} to ${to.score.toFixed(1)}`, {
        before: { ...score(from, earlier), basedOn: from.basedOn },
        after: { ...score(to, later), basedOn: to.basedOn },
      });
    }
    return changes;
  },
};
