import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { agentActivityIn } from '../../analytics/agentActivity.js';
import { reportsWins } from '../../analytics/reports.js';
import { screenActive } from '../../analytics/screens.js';
import { listContentIdeas } from '../../content/ideas.js';
import { DAY_MS } from '../../shared/time.js';
import { COMPOSITE, DEFINITIONS } from '../../visibility/metrics/composite.js';
import { groupBy, loadDaily, metricSubjects } from '../../visibility/metrics/daily.js';
import { scoreRows } from '../../visibility/metrics/score.js';
import { changeBetween } from '../../visibility/metrics/wilson.js';
import { SEVERITY_RANK, type ChangeKind } from '../kinds.js';
import { CHANGE_COLUMNS, changeRecord, workspaceChanges, type ChangeRecord } from '../listChanges.js';
import { weeksUpTo, type DigestWeek } from './week.js';

/** Changes shown in a digest, most severe first; the rest are counted. */
export const DIGEST_CHANGES = 10;
/** Wins and losses shown, each. */
export const DIGEST_MOVES = 5;
/** Content ideas offered as what to do next. */
export const DIGEST_IDEAS = 3;
/** Weekly points of the score's trend, the digest's week last. */
export const TREND_WEEKS = 8;

const WIN_KINDS: readonly ChangeKind[] = ['citation.gained', 'rank.entered_top'];
const LOSS_KINDS: readonly ChangeKind[] = ['citation.lost', 'rank.left_top'];

// The severity order in SQL, so that the cap keeps the most severe changes whatever their number.
const severityOrder = sql<number>`case changes.severity when 'critical' then ${SEVERITY_RANK.critical} when 'warning' then ${SEVERITY_RANK.warning} else ${SEVERITY_RANK.info} end`;

function weekChanges(db: Kysely<Database>, workspaceId: string, week: DigestWeek) {
  return workspaceChanges(db, workspaceId)
    .where('changes.detected_at', '>=', week.from)
    .where('changes.detected_at', '<', week.to + DAY_MS);
}

async function changesOfWeek(db: Kysely<Database>, workspaceId: string, week: DigestWeek) {
  const [rows, total] = await Promise.all([
    weekChanges(db, workspaceId, week).select(CHANGE_COLUMNS).orderBy(severityOrder, 'desc').orderBy('changes.detected_at', 'desc').orderBy('changes.id').limit(DIGEST_CHANGES).execute(),
    weekChanges(db, workspaceId, week)
      .select(['changes.severity', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('changes.severity')
      .execute(),
  ]);
  const bySeverity = { critical: 0, warning: 0, info: 0 };
  for (const row of total) bySeverity[row.severity] = Number(row.n);
  const count = bySeverity.critical + bySeverity.warning + bySeverity.info;
  return { total: count, bySeverity, shown: rows.map(changeRecord), more: Math.max(0, count - rows.length) };
}

async function movesOfWeek(db: Kysely<Database>, workspaceId: string, week: DigestWeek, kinds: readonly ChangeKind[]): Promise<ChangeRecord[]> {
  const rows = await weekChanges(db, workspaceId, week)
    .where('changes.kind', 'in', kinds)
    .select(CHANGE_COLUMNS)
    .orderBy('changes.detected_at', 'desc')
    .orderBy('changes.id')
    .limit(DIGEST_MOVES)
    .execute();
  return rows.map(changeRecord);
}

/** The score, mention rate and their intervals per week over the trend's weeks, from the daily aggregates the metrics read. */
async function visibilityWeeks(db: Kysely<Database>, workspaceId: string, week: DigestWeek) {
  const weeks = weeksUpTo(week, TREND_WEEKS);
  const subjects = await metricSubjects(db, workspaceId);
  const rows = await loadDaily(db, workspaceId, { days: TREND_WEEKS * 7, from: weeks[0]!.from, to: week.to }, undefined, subjects);
  const byWeek = groupBy(rows, (row) => Math.floor((row.day - weeks[0]!.from) / (7 * DAY_MS)));
  return weeks.map((w, i) => {
    const scored = scoreRows(byWeek.get(i) ?? [], subjects);
    return { week: w.key, score: scored.score, range: scored.range, reason: scored.reason, mentionRate: scored.components.mentionRate };
  });
}

/**
 * Everything a week's digest says, computed from the stored figures: the week's changes (most severe first), the
 * score and mention rate with their intervals and 8 weeks of trend, wins and losses, the agents' runs and the content
 * ideas that would close the biggest gaps. No words here but the figures' own: the summary is made from these.
 */
export async function digestFigures(db: Kysely<Database>, workspaceId: string, week: DigestWeek, now: number) {
  const [changes, wins, losses, trend, reportsOn, agents, ideas] = await Promise.all([
    changesOfWeek(db, workspaceId, week),
    movesOfWeek(db, workspaceId, week, WIN_KINDS),
    movesOfWeek(db, workspaceId, week, LOSS_KINDS),
    visibilityWeeks(db, workspaceId, week),
    screenActive(db, workspaceId, 'reports'),
    agentActivityIn(db, workspaceId, { days: 7, from: week.from, to: week.to }),
    listContentIdeas(db, workspaceId, now),
  ]);
  const current = trend[trend.length - 1]!;
  const previous = trend[trend.length - 2]!;
  // The Reports screen's wins read the 7 UTC days ending on the day of `now`: the week's Sunday gives its Monday to Sunday.
  const reportWins = reportsOn ? await reportsWins({ db, workspaceId, now: week.to }, '7') : null;
  return {
    week: { from: week.key, to: new Date(week.to).toISOString().slice(0, 10) },
    changes,
    visibility: {
      definition: `The composite visibility score (version ${COMPOSITE.version}) and the mention rate over the week's answers, as get_visibility_score computes them for a window; the trend is one point per week (Monday to Sunday, UTC), the digest's week last.`,
      mentionRateDefinition: DEFINITIONS.mentionRate,
      score: current.score,
      range: current.range,
      reason: current.reason,
      mentionRate: current.mentionRate,
      previousScore: previous.score,
      mentionRateChange: changeBetween(previous.mentionRate.interval, current.mentionRate.interval),
      trend,
    },
    wins: {
      changes: wins,
      reports: reportWins === null ? null : { newlyCited: reportWins.newlyCited, aiTrafficGrowth: reportWins.aiTrafficGrowth, newReferrers: reportWins.newReferrers },
    },
    losses: { changes: losses },
    agents: {
      definition: agents.definition,
      runs: agents.lanes.reduce((sum, lane) => sum + lane.runs, 0),
      failed: agents.lanes.reduce((sum, lane) => sum + lane.failed, 0),
      lanes: agents.lanes.map(({ lane, runs, succeeded, failed, inProgress }) => ({ lane, runs, succeeded, failed, inProgress })),
    },
    next: ideas.ideas
      .filter((idea) => idea.score !== null)
      .slice(0, DIGEST_IDEAS)
      .map((idea) => ({ queryId: idea.id, queryText: idea.queryText, suggestedTitle: idea.suggestedTitle, score: idea.score, citationGapRate: idea.metrics.citationGapRate })),
  };
}

export type DigestFigures = Awaited<ReturnType<typeof digestFigures>>;
