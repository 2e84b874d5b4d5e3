import type { EngineName } from '../../../db/schema.js';
import { normaliseCitations } from '../../../src/visibility/engines/engine.js';
import { recordEngineAnswer } from '../../../src/visibility/checks/record.js';
import { insertCheckRun, startCheckRun, type CheckTrigger } from '../../../src/visibility/checks/runs.js';
import type { Services } from '../../../src/outsideServices.js';
import type { TestService, TestWorkspace } from '../../support/harness.js';

export async function addQuery(t: TestService, ws: TestWorkspace, text: string): Promise<string> {
  const answer = await t.rest(ws.key, 'POST', '/api/v1/queries', { text });
  if (answer.status !== 200) throw new Error(`add_query answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return (answer.body.data as { query: { id: string } }).query.id;
}

export async function addCompetitor(t: TestService, ws: TestWorkspace, name: string, websiteUrl: string): Promise<string> {
  const answer = await t.rest(ws.key, 'POST', '/api/v1/competitors', { name, websiteUrl });
  if (answer.status !== 200) throw new Error(`add_competitor answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return (answer.body.data as { competitor: { competitorId: string } }).competitor.competitorId;
}

export function startRun(t: TestService, ws: TestWorkspace, trigger: CheckTrigger = 'manual', services: Services = t.service.services) {
  return t.db.transaction().execute((trx) => startCheckRun(trx, t.clock, services, ws.workspaceId, trigger));
}

/** Records answers straight through the recording code, as the engine_check job does; all at the clock's time. */
export class AnswerRecorder {
  private runIndex = 0;

  private constructor(
    private readonly t: TestService,
    private readonly ws: TestWorkspace,
    readonly runId: string,
  ) {}

  /** `planned`: the run closes once that many answers are recorded (by default it stays open). */
  static async start(t: TestService, ws: TestWorkspace, planned = 1_000_000): Promise<AnswerRecorder> {
    const runId = await insertCheckRun(t.db, t.clock, { workspaceId: ws.workspaceId, trigger: 'manual', engines: ['chatgpt'], runsPerQuery: 1, planned });
    return new AnswerRecorder(t, ws, runId);
  }

  answer(engine: EngineName, queryId: string, text: string, urls: string[] = []) {
    return recordEngineAnswer(this.t.db, this.t.clock, {
      workspaceId: this.ws.workspaceId,
      runId: this.runId,
      queryId,
      engine,
      runIndex: ++this.runIndex,
      answer: { text, citations: normaliseCitations(urls.map((url) => ({ url }))), model: `${engine}-model`, latencyMs: 120 },
      error: null,
    });
  }

  failure(engine: EngineName, queryId: string) {
    return recordEngineAnswer(this.t.db, this.t.clock, {
      workspaceId: this.ws.workspaceId,
      runId: this.runId,
      queryId,
      engine,
      runIndex: ++this.runIndex,
      answer: null,
      error: { errorClass: 'timeout', message: 'no answer within 120 s' },
    });
  }
}
