import type { EngineName } from '../../../db/schema.js';
import { normaliseCitations } from '../../../src/visibility/engines/engine.js';
import { recordEngineAnswer, recordRankCheck, type EngineAnswerInput, type Sentiment } from '../../../src/visibility/checks/record.js';
import { insertCheckRun } from '../../../src/visibility/checks/runs.js';
import type { OrganicResult } from '../../../src/visibility/serp/serp.js';
import { domainOf } from '../../../src/shared/urls.js';
import type { TestService, TestWorkspace } from '../../support/harness.js';

/** Seeds checks through the recording code the checks use, so the aggregates are the ones real checks leave. */
export class Seeder {
  /** The check run answers go to; started at the time of its first answer, as a real run starts just before it. */
  private runId: string | undefined;

  constructor(
    private readonly t: TestService,
    readonly ws: TestWorkspace,
  ) {}

  private async currentRun(): Promise<string> {
    this.runId ??= await insertCheckRun(this.t.db, this.t.clock, { workspaceId: this.ws.workspaceId, trigger: 'manual', engines: ['chatgpt'], runsPerQuery: 1, planned: 10_000 });
    return this.runId;
  }

  /** Later answers and rank checks belong to a new check run. */
  nextRun(): void {
    this.runId = undefined;
  }

  async query(text: string): Promise<string> {
    const answer = await this.t.rest(this.ws.key, 'POST', '/api/v1/queries', { text });
    if (answer.status !== 200) throw new Error(`add_query answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return (answer.body.data as { query: { id: string } }).query.id;
  }

  async competitor(name: string, website: string): Promise<string> {
    const id = `cmp_${name.toLowerCase()}_${Math.random().toString(36).slice(2, 8)}`;
    await this.t.db
      .insertInto('competitors')
      .values({ id, workspace_id: this.ws.workspaceId, name, website_url: website, domain: domainOf(website)!, aliases: '[]', positioning: null, created_at: this.t.clock.now(), removed_at: null })
      .execute();
    return id;
  }

  private runIndex = 0;

  /** One check at `at` (checks must be recorded oldest first: checked_at only moves forward). */
  private async check(at: string, engine: EngineName, queryId: string, outcome: Pick<EngineAnswerInput, 'answer' | 'error' | 'sentiments'>) {
    this.t.clock.set(Date.parse(at));
    return recordEngineAnswer(this.t.db, this.t.clock, { workspaceId: this.ws.workspaceId, runId: await this.currentRun(), queryId, engine, runIndex: ++this.runIndex, ...outcome });
  }

  answer(at: string, engine: EngineName, queryId: string, text: string, urls: string[] = [], sentiments: Record<string, Sentiment> = {}) {
    const answer = { text, citations: normaliseCitations(urls.map((url) => ({ url }))), model: `${engine}-model`, latencyMs: 100 };
    return this.check(at, engine, queryId, { answer, error: null, sentiments: new Map(Object.entries(sentiments)) });
  }

  /** A check whose search page showed no AI answer (Google's AI overview, Copilot on Bing). */
  notShown(at: string, engine: 'google_ai_overview' | 'copilot', queryId: string) {
    return this.check(at, engine, queryId, { answer: { text: '', citations: [], model: 'dataforseo-v3', latencyMs: 100, notShown: true }, error: null });
  }

  failure(at: string, engine: EngineName, queryId: string, errorClass = 'timeout') {
    return this.check(at, engine, queryId, { answer: null, error: { errorClass, message: 'no answer' } });
  }

  /** A rank check in the current check run (one per run, query and search engine). */
  async rank(at: string, queryId: string, searchEngine: 'google' | 'bing', urls: string[] | null, aiOverview?: { shown: boolean; references: string[] }) {
    this.t.clock.set(Date.parse(at));
    const runId = await this.currentRun();
    const organic: OrganicResult[] | null = urls === null ? null : urls.map((url, i) => ({ position: i + 1, url, domain: domainOf(url)!, title: null }));
    return recordRankCheck(this.t.db, this.t.clock, {
      workspaceId: this.ws.workspaceId,
      runId,
      queryId,
      searchEngine,
      organic,
      aiOverview: aiOverview === undefined ? null : { shown: aiOverview.shown, text: '', references: normaliseCitations(aiOverview.references.map((url) => ({ url }))) },
      error: urls === null ? { errorClass: 'provider_error', message: 'failed' } : null,
    });
  }
}
