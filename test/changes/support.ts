import { pino } from 'pino';
import type { DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import type { EngineName } from '../../db/schema.js';
import { detectChangesJob } from '../../src/changes/detectJob.js';
import { listChanges, type ChangeRecord } from '../../src/changes/listChanges.js';
import { ManualClock } from '../../src/clock.js';
import { insertQuery } from '../../src/content/queries.js';
import { jobOfRow } from '../../src/jobs/worker.js';
import { recordEngineAnswer, recordRankCheck } from '../../src/visibility/checks/record.js';
import { insertCheckRun } from '../../src/visibility/checks/runs.js';
import { normaliseCitations } from '../../src/visibility/engines/engine.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { openTestDatabase } from '../support/database.js';
import { offlineServices } from '../support/offlineServices.js';
import type { Services } from '../../src/outsideServices.js';

export const BRAND = { name: 'Acme', domain: 'acme.example' };
const WEEK_MS = 7 * 86_400_000;

/** What one answer says about the brand and the competitors: who it names in its text, which pages it cites. */
export interface AnswerSpec {
  /** Names in the text: `Acme`, a competitor's name. */
  names?: string[];
  urls?: string[];
}

type Check =
  | { type: 'answer'; engine: EngineName; queryId: string; spec: AnswerSpec }
  | { type: 'failure' | 'not_shown'; engine: EngineName; queryId: string }
  | { type: 'rank'; queryId: string; position: number | null | 'failed' };

/** The checks of one run, collected first so that the run plans exactly that many and closes on the last. */
export class RunPlan {
  readonly checks: Check[] = [];

  answer(engine: EngineName, queryId: string, spec: AnswerSpec = {}): this {
    this.checks.push({ type: 'answer', engine, queryId, spec });
    return this;
  }

  failure(engine: EngineName, queryId: string): this {
    this.checks.push({ type: 'failure', engine, queryId });
    return this;
  }

  notShown(engine: 'google_ai_overview' | 'copilot', queryId: string): this {
    this.checks.push({ type: 'not_shown', engine, queryId });
    return this;
  }

  /** The brand's Google position (null: not in the top 30; 'failed': the check failed). */
  rank(queryId: string, position: number | null | 'failed'): this {
    this.checks.push({ type: 'rank', queryId, position });
    return this;
  }
}

/**
 * A workspace whose runs are recorded through the recording code the checks use (recordEngineAnswer,
 * recordRankCheck), and whose changes are found by the real detect_changes handler that the run's last check queued.
 */
export class ChangeWorld {
  private constructor(
    readonly database: DatabaseHandle,
    readonly clock: ManualClock,
    readonly services: Services,
    readonly workspaceId: string,
  ) {}

  static async open(): Promise<ChangeWorld> {
    const database = await openTestDatabase();
    await migrateToLatest(database);
    const clock = new ManualClock(Date.parse('2026-06-01T08:00:00Z'));
    const workspaceId = await createWorkspace(database.db, clock, { name: BRAND.name, websiteUrl: `https://${BRAND.domain}`, plan: 'scale' });
    return new ChangeWorld(database, clock, offlineServices(clock), workspaceId);
  }

  get db() {
    return this.database.db;
  }

  close(): Promise<void> {
    return this.database.close();
  }

  async query(text: string): Promise<string> {
    return (await insertQuery(this.db, this.clock, this.workspaceId, { text, source: 'user' })).id;
  }

  async competitor(name: string, domain: string): Promise<string> {
    const id = `cmp_${name.toLowerCase()}`;
    await this.db
      .insertInto('competitors')
      .values({ id, workspace_id: this.workspaceId, name, website_url: `https://${domain}`, domain, aliases: '[]', positioning: null, created_at: this.clock.now(), removed_at: null })
      .execute();
    return id;
  }

  /** Records a run a week after the last one, then runs the detect_changes job its last check queued. Returns the run id. */
  async run(build: (plan: RunPlan) => void): Promise<string> {
    const plan = new RunPlan();
    build(plan);
    this.clock.advance(WEEK_MS);
    const runId = await insertCheckRun(this.db, this.clock, { workspaceId: this.workspaceId, trigger: 'schedule', engines: ['chatgpt'], runsPerQuery: 1, planned: plan.checks.length });
    const runIndex = new Map<string, number>();
    for (const check of plan.checks) {
      this.clock.advance(1000);
      if (check.type === 'rank') {
        const organic =
          check.position === 'failed'
            ? null
            : Array.from({ length: 30 }, (_, p) => {
                const domain = check.position === p + 1 ? BRAND.domain : `other-${p}.example`;
                return { position: p + 1, url: `https://${domain}/page`, domain, title: null };
              });
        await recordRankCheck(this.db, this.clock, {
          workspaceId: this.workspaceId,
          runId,
          queryId: check.queryId,
          searchEngine: 'google',
          organic,
          error: organic === null ? { errorClass: 'provider_error', message: 'failed' } : null,
        });
        continue;
      }
      const cell = `${check.queryId}|${check.engine}`;
      runIndex.set(cell, (runIndex.get(cell) ?? 0) + 1);
      const base = { workspaceId: this.workspaceId, runId, queryId: check.queryId, engine: check.engine, runIndex: runIndex.get(cell)! };
      if (check.type === 'failure') {
        await recordEngineAnswer(this.db, this.clock, { ...base, answer: null, error: { errorClass: 'timeout', message: 'no answer' } });
      } else if (check.type === 'not_shown') {
        await recordEngineAnswer(this.db, this.clock, { ...base, answer: { text: '', citations: [], model: 'serp', latencyMs: 10, notShown: true }, error: null });
      } else if (check.type === 'answer') {
        const names = check.spec.names ?? [];
        const text = names.length === 0 ? 'A spreadsheet does the job for most teams.' : `Teams often pick ${names.join(' or ')}.`;
        const citations = normaliseCitations((check.spec.urls ?? []).map((url) => ({ url })));
        await recordEngineAnswer(this.db, this.clock, { ...base, answer: { text, citations, model: `${check.engine}-model`, latencyMs: 10 }, error: null });
      }
    }
    await this.detect(runId);
    return runId;
  }

  /** Runs the detect_changes job queued for the run, as the worker would (again, when called twice). */
  async detect(runId: string): Promise<Record<string, unknown>> {
    const row = await this.db.selectFrom('jobs').selectAll().where('workspace_id', '=', this.workspaceId).where('kind', '=', 'detect_changes').where('subject_id', '=', runId).executeTakeFirstOrThrow();
    return detectChangesJob.run(
      { ...jobOfRow(row), leaseToken: 'test' },
      { db: this.db, clock: this.clock, services: this.services, logger: pino({ level: 'silent' }), progress: async () => {}, usage: { add: () => {} } },
    );
  }

  /** Every change recorded, oldest first, as list_changes returns them. */
  async changes(kind?: ChangeRecord['kind']): Promise<ChangeRecord[]> {
    const page = await listChanges(this.db, this.workspaceId, { kind, limit: 100, page: 1 });
    return [...page.changes].reverse();
  }
}
