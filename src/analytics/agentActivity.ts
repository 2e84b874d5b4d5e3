import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { JobKind } from '../jobs/queue.js';
import { DAY_MS, toIso } from '../shared/time.js';
import { metricWindow, windowRecord, type MetricDays, type MetricWindow } from '../visibility/metrics/window.js';

export const AGENT_LANES = ['writing', 'publishing', 'checks', 'syncs', 'outreach', 'social'] as const;
export type AgentLane = (typeof AGENT_LANES)[number];

/** Every job kind belongs to one lane; a new kind does not compile until it has one. */
const LANE_OF: Record<JobKind, AgentLane> = {
  write_article: 'writing',
  deliver: 'publishing',
  render_check: 'publishing',
  check_run: 'checks',
  engine_check: 'checks',
  rank_check: 'checks',
  competitor_positioning: 'checks',
  search_console_sync: 'syncs',
  cdn_sync: 'syncs',
  outreach_send: 'outreach',
  outreach_replies: 'outreach',
  outreach_discover: 'outreach',
  backlink_sync: 'syncs',
  link_network_match: 'outreach',
  backlink_verify: 'checks',
  social_search: 'social',
  repurpose_push: 'social',
  detect_changes: 'checks',
  send_alerts: 'checks',
  crawler_reach: 'checks',
  digest_send: 'publishing',
};

export const AGENT_ACTIVITY_DEFINITION =
  'A run is a background job the service started in the window (from UTC midnight of its first day): succeeded when it finished, ' +
  'failed when its last attempt failed, inProgress while it waits or runs; retries of a job count once. ' +
  'Lanes: writing (articles), publishing (webhook deliveries, render checks, the weekly digest mails), checks (answer-engine, rank and positioning checks, backlink verification, the comparison of each check run with the one before, the AI crawlers\' reach of the site), ' +
  'syncs (Search Console, the CDN, the backlink index), outreach (finding prospects, mail sends and reads of the mailbox for replies, link-network matching), social (searches of the social sources for threads, pushes of repurposed posts to the scheduling tool).';

/** Runs per agent lane over the last days, from the jobs table. */
export function agentActivity(db: Kysely<Database>, workspaceId: string, days: MetricDays, now: number) {
  return agentActivityIn(db, workspaceId, metricWindow(days, now));
}

/** Runs per agent lane over any whole UTC days (a past week of the digest), from the jobs table. */
export async function agentActivityIn(db: Kysely<Database>, workspaceId: string, window: MetricWindow) {
  const counts = await db
    .selectFrom('jobs')
    .select(['kind', 'state', (eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.max('finished_at').as('last_finished_at')])
    .where('workspace_id', '=', workspaceId)
    .where('created_at', '>=', window.from)
    .where('created_at', '<', window.to + DAY_MS)
    .groupBy(['kind', 'state'])
    .execute();
  const lanes = AGENT_LANES.map((lane) => {
    const kinds = (Object.keys(LANE_OF) as JobKind[]).filter((kind) => LANE_OF[kind] === lane);
    const rows = counts.filter((row) => kinds.includes(row.kind as JobKind));
    const sum = (states: readonly string[]) => rows.filter((row) => states.includes(row.state)).reduce((total, row) => total + Number(row.n), 0);
    const finished = rows.map((row) => (row.last_finished_at === null ? 0 : Number(row.last_finished_at))).reduce((a, b) => Math.max(a, b), 0);
    return {
      lane,
      kinds,
      runs: sum(['queued', 'running', 'done', 'failed']),
      succeeded: sum(['done']),
      failed: sum(['failed']),
      inProgress: sum(['queued', 'running']),
      lastFinishedAt: finished === 0 ? null : toIso(finished),
    };
  });
  return { window: windowRecord(window), definition: AGENT_ACTIVITY_DEFINITION, lanes };
}
