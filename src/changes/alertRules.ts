import type { Kysely } from 'kysely';
import type { Database, EngineName } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { findQuery } from '../content/queries.js';
import { BadInputError } from '../errors.js';
import { toJson } from '../shared/json.js';
import { CHANGE_KIND_NAMES, CHANGE_KINDS, type ChangeKind, type ChangeKindDefinition } from './kinds.js';
import { loadRules, type AlertRule } from './rules.js';

/** The fewest and most alert messages one recipient may get in a UTC day. */
export const ALERTS_PER_DAY_MIN = 1;
export const ALERTS_PER_DAY_MAX = 100;

function ruleView(rule: AlertRule) {
  return { enabled: rule.enabled, threshold: rule.threshold, engines: rule.engines ?? [], queryIds: rule.queryIds ?? [] };
}

function kindView(kind: ChangeKind, rule: AlertRule) {
  const definition: ChangeKindDefinition = CHANGE_KINDS[kind];
  return {
    kind,
    severity: definition.severity,
    definition: definition.definition,
    threshold: definition.threshold === undefined ? null : { ...definition.threshold },
    perEngine: definition.perEngine,
    perQuery: definition.perQuery,
    rule: ruleView(rule),
  };
}

async function alertsPerDay(db: Kysely<Database>, workspaceId: string): Promise<number> {
  const row = await db.selectFrom('workspaces').select('alerts_per_day').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  return row.alerts_per_day;
}

/** Every kind with its definition and the workspace's rule, and the daily cap of alert messages. */
export async function listAlertRules(db: Kysely<Database>, workspaceId: string) {
  const rules = await loadRules(db, workspaceId);
  return { alertsPerDay: await alertsPerDay(db, workspaceId), rules: CHANGE_KIND_NAMES.map((kind) => kindView(kind, rules[kind])) };
}

export interface RuleUpdate {
  kind: ChangeKind;
  enabled?: boolean | undefined;
  threshold?: number | undefined;
  /** An empty list: every engine. */
  engines?: EngineName[] | undefined;
  /** An empty list: every tracked query. */
  queryIds?: string[] | undefined;
}

/** Changes one kind's rule; what the update leaves out stays as it was. A bad value is a 400 naming its field, another workspace's query a 404. */
export async function updateAlertRule(db: Kysely<Database>, clock: Clock, workspaceId: string, update: RuleUpdate) {
  const definition: ChangeKindDefinition = CHANGE_KINDS[update.kind];
  if (update.threshold !== undefined) {
    const limits = definition.threshold;
    if (limits === undefined) throw BadInputError.field('threshold', `${update.kind} has no threshold: it is only on or off`);
    if (update.threshold < limits.min || update.threshold > limits.max) {
      throw BadInputError.field('threshold', `must be between ${limits.min} and ${limits.max} for ${update.kind} (${limits.meaning})`);
    }
  }
  if (update.engines !== undefined && update.engines.length > 0 && !definition.perEngine) throw BadInputError.field('engines', `${update.kind} is not about one engine`);
  if (update.queryIds !== undefined && update.queryIds.length > 0) {
    if (!definition.perQuery) throw BadInputError.field('queryIds', `${update.kind} is not about one query`);
    for (const queryId of update.queryIds) await findQuery(db, workspaceId, queryId);
  }
  const current = (await loadRules(db, workspaceId))[update.kind];
  const listOrEvery = <T>(given: T[] | undefined, stored: T[] | null): T[] | null => (given === undefined ? stored : given.length === 0 ? null : [...new Set(given)]);
  const rule: AlertRule = {
    kind: update.kind,
    enabled: update.enabled ?? current.enabled,
    threshold: update.threshold ?? current.threshold,
    engines: listOrEvery(update.engines, current.engines),
    queryIds: listOrEvery(update.queryIds, current.queryIds),
  };
  const values = {
    enabled: rule.enabled ? 1 : 0,
    threshold: rule.threshold,
    engines: rule.engines === null ? null : toJson(rule.engines),
    query_ids: rule.queryIds === null ? null : toJson(rule.queryIds),
    updated_at: clock.now(),
  };
  await db
    .insertInto('alert_rules')
    .values({ workspace_id: workspaceId, kind: update.kind, ...values })
    .onConflict((oc) => oc.columns(['workspace_id', 'kind']).doUpdateSet(values))
    .execute();
  return kindView(update.kind, rule);
}

export async function updateAlertSettings(db: Kysely<Database>, workspaceId: string, settings: { alertsPerDay: number }) {
  await db.updateTable('workspaces').set({ alerts_per_day: settings.alertsPerDay }).where('id', '=', workspaceId).execute();
  return { alertsPerDay: settings.alertsPerDay };
}
