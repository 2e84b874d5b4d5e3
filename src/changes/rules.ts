import type { Kysely } from 'kysely';
import type { Database, EngineName } from '../../db/schema.js';
import { fromJson } from '../shared/json.js';
import { CHANGE_KIND_NAMES, CHANGE_KINDS, type ChangeKind } from './kinds.js';

/** A workspace's rule for one kind, defaults filled in. */
export interface AlertRule {
  kind: ChangeKind;
  enabled: boolean;
  /** The kind's threshold, or null for a kind that has none. */
  threshold: number | null;
  /** Only these engines; null: every engine. */
  engines: EngineName[] | null;
  /** Only these tracked queries; null: every query. */
  queryIds: string[] | null;
}

export type AlertRules = Record<ChangeKind, AlertRule>;

export function defaultRule(kind: ChangeKind): AlertRule {
  const definition = CHANGE_KINDS[kind];
  return { kind, enabled: true, threshold: 'threshold' in definition ? definition.threshold.default : null, engines: null, queryIds: null };
}

/** Every kind's rule for the workspace: its own where it set one, else the kind's defaults. */
export async function loadRules(db: Kysely<Database>, workspaceId: string): Promise<AlertRules> {
  const rows = await db.selectFrom('alert_rules').selectAll().where('workspace_id', '=', workspaceId).execute();
  const rules = Object.fromEntries(CHANGE_KIND_NAMES.map((kind) => [kind, defaultRule(kind)])) as AlertRules;
  for (const row of rows) {
    if (!(row.kind in CHANGE_KINDS)) continue;
    const kind = row.kind as ChangeKind;
    rules[kind] = {
      kind,
      enabled: row.enabled === 1,
      threshold: row.threshold ?? defaultRule(kind).threshold,
      engines: row.engines === null ? null : fromJson<EngineName[]>(row.engines),
      queryIds: row.query_ids === null ? null : fromJson<string[]>(row.query_ids),
    };
  }
  return rules;
}

/** Whether the rule lets a change about this engine and query be recorded. */
export function ruleAllows(rule: AlertRule, subject: { engine: EngineName | null; queryId: string | null }): boolean {
  if (!rule.enabled) return false;
  if (rule.engines !== null && subject.engine !== null && !rule.engines.includes(subject.engine)) return false;
  if (rule.queryIds !== null && subject.queryId !== null && !rule.queryIds.includes(subject.queryId)) return false;
  return true;
}
