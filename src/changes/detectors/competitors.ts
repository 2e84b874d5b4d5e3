import { mentions } from '../../visibility/metrics/composite.js';
import { metricSubjects } from '../../visibility/metrics/daily.js';
import { changeBetween, rate, type Rate } from '../../visibility/metrics/wilson.js';
import type { NoticedChange } from '../record.js';
import type { ChangeDetector } from './detector.js';
import { allEngines, percentText, runCounts, type EngineCounts } from './runAnswers.js';

/** Each subject's share of voice in a run: its answers naming it / the answers naming the brand or a tracked competitor. */
function shares(counts: EngineCounts, competitorIds: readonly string[]): { brand: Rate; competitors: Map<string, Rate> } {
  const brandNamed = mentions(counts.brand);
  const total = brandNamed + competitorIds.reduce((sum, id) => sum + (counts.competitors.get(id) ?? 0), 0);
  return { brand: rate(brandNamed, total), competitors: new Map(competitorIds.map((id) => [id, rate(counts.competitors.get(id) ?? 0, total)])) };
}

const shareDetails = (value: Rate) => ({ share: value.rate, interval: value.interval, answersNaming: value.count, of: value.of });

/**
 * competitor.overtook: a tracked competitor's share of voice (as get_share_of_voice defines it, over all engines) has a
 * 95 % interval entirely above the brand's in this run, and did not in the run before; both over the cells the two runs
 * answered.
 */
export const competitorDetector: ChangeDetector = {
  name: 'competitors',
  async detect({ db, workspaceId, runId, previousRunId }) {
    if (previousRunId === null) return [];
    const subjects = await metricSubjects(db, workspaceId);
    if (subjects.competitors.length === 0) return [];
    const ids = subjects.competitors.map((competitor) => competitor.id);
    const [after, before] = await Promise.all([runCounts(db, workspaceId, runId, previousRunId, subjects), runCounts(db, workspaceId, previousRunId, runId, subjects)]);
    const now = shares(allEngines(after), ids);
    const was = shares(allEngines(before), ids);
    const changes: NoticedChange[] = [];
    for (const competitor of subjects.competitors) {
      const share = now.competitors.get(competitor.id)!;
      const earlier = was.competitors.get(competitor.id)!;
      if (changeBetween(now.brand.interval, share.interval) !== 'up') continue;
      if (changeBetween(was.brand.interval, earlier.interval) === 'up') continue;
      changes.push({
        kind: 'competitor.overtook',
        dedupeKey: `${runId}:${competitor.id}`,
        title: `${competitor.name} overtook you in share of voice: ${percentText(share.rate)} against your ${percentText(now.brand.rate)}`,
        runId,
        details: {
          competitorId: competitor.id,
          competitor: competitor.name,
          before: { competitor: shareDetails(earlier), brand: shareDetails(was.brand) },
          after: { competitor: shareDetails(share), brand: shareDetails(now.brand) },
          runId,
          previousRunId,
        },
      });
    }
    return changes;
  },
};
