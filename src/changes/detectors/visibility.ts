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
    const report = (engine: EngineName | null, metric: RateMetric | 'score', direction: 'up' | 'down', title: string, details: Record<string, unknown>) => {
      const kind = direction === 'up' ? 'visibility.rose' : 'visibility.fell';
      changes.push({ kind, dedupeKey: `${runId}:${metric}:${engine ?? 'all'}`, title, engine, runId, details: { metric, engine, ...details, runId, previousRunId } });
    };
    for (const [engine, earlier, later] of scopes) {
      const was = scoreOf(earlier, subjects.competitors.length);
      const now = scoreOf(later, subjects.competitors.length);
      for (const metric of ['mentionRate', 'citationRate'] as const) {
        const [from, to] = [was.components[metric], now.components[metric]];
        const direction = changeBetween(from.interval, to.interval);
        if (direction !== 'up' && direction !== 'down') continue;
        const kind = direction === 'up' ? 'visibility.rose' : 'visibility.fell';
        if (Math.abs(to.rate! - from.rate!) * 100 < (rules[kind].threshold ?? 0)) continue;
        const verb = direction === 'up' ? 'rose' : 'fell';
        report(engine, metric, direction, `${METRIC_NAMES[metric]}${where(engine)} ${verb} from ${percentText(from.rate)} to ${percentText(to.rate)}`, {
          before: rateDetails(from),
          after: rateDetails(to),
        });
      }
      const [from, to] = [was.composite, now.composite];
      // Scores built from different components are different measures: compared only when both rest on the same ones.
      if (from.score === null || to.score === null || from.basedOn.join() !== to.basedOn.join()) continue;
      const direction = changeBetween(from.range, to.range);
      if (direction !== 'up' && direction !== 'down') continue;
      const kind = direction === 'up' ? 'visibility.rose' : 'visibility.fell';
      if (Math.abs(to.score - from.score) < (rules[kind].threshold ?? 0)) continue;
      const score = (value: { score: number | null; range: Interval | null }, counts: EngineCounts) => ({
        score: value.score,
        range: value.range,
        answers: counts.brand.checked,
        answersNamingBrand: mentions(counts.brand),
      });
      report(engine, 'score', direction, `${METRIC_NAMES.score}${where(engine)} ${direction === 'up' ? 'rose' : 'fell'} from ${from.score.toFixed(1)} to ${to.score.toFixed(1)}`, {
        before: { ...score(from, earlier), basedOn: from.basedOn },
        after: { ...score(to, later), basedOn: to.basedOn },
      });
    }
    return changes;
  },
};
