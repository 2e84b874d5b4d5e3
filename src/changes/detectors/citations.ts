import type { Kysely } from 'kysely';
import type { Database, EngineName } from '../../../db/schema.js';
import { ENGINE_LABELS } from '../../visibility/engines/engine.js';
import type { NoticedChange } from '../record.js';
import type { ChangeDetector } from './detector.js';
import { ANSWERED } from './runAnswers.js';

/** Letters kept per cell: enough for "two runs one way, then two the other". */
export const HISTORY_LENGTH = 4;
const LOST = 'ccnn';
const GAINED = 'nncc';
/** Cells written per statement: 5 values each, well under SQLite's and PostgreSQL's limits on parameters. */
const WRITE_BATCH = 500;

interface Cell {
  queryId: string;
  engine: EngineName;
  history: string;
}

/**
 * citation.gained and citation.lost, per tracked query and AI engine (Google's AI overview is the engine
 * google_ai_overview). Each cell keeps the brand's result in its latest runs in change_cells, one letter a run: `c` when
 * some answer of the run cited one of the brand's pages, `n` when the engine answered and none cited; a run where the
 * cell only failed or showed no AI answer adds nothing, so an outage neither breaks nor makes a streak. Lost when the
 * history ends "ccnn", gained when it ends "nncc". A cell whose last run is this one is not written again (the job run
 * twice reports the same changes, deduplicated by their key), nor one that already holds a later run.
 */
export const citationDetector: ChangeDetector = {
  name: 'citations',
  async detect({ db, workspaceId, runId, previousRunId }) {
    const run = await db.selectFrom('check_runs').select('created_at').where('id', '=', runId).where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (run === undefined) return [];
    const [results, stored] = await Promise.all([
      db
        .selectFrom('engine_answers')
        .select((eb) => ['query_id', 'engine', eb.fn.max(eb.case().when('brand_result', '=', 'cited').then(1).else(0).end()).as('cited')])
        // The run is the workspace's (read above): by run id alone, through the (run, query, engine, result) index.
        .where('run_id', '=', runId)
        .where('brand_result', 'in', ANSWERED)
        .groupBy(['query_id', 'engine'])
        .execute(),
      db.selectFrom('change_cells').select(['query_id', 'engine', 'history', 'last_run_id']).where('workspace_id', '=', workspaceId).execute(),
    ]);
    const cells = new Map(stored.map((cell) => [`${cell.query_id}|${cell.engine}`, cell]));
    const laterRuns = await runsAfter(db, workspaceId, [...new Set(stored.map((cell) => cell.last_run_id))], run.created_at, runId);

    const written: Array<Cell & { lastRunId: string }> = [];
    const current: Cell[] = [];
    for (const result of results) {
      const cell = cells.get(`${result.query_id}|${result.engine}`);
      if (cell !== undefined && cell.last_run_id === runId) {
        current.push({ queryId: result.query_id, engine: result.engine, history: cell.history });
        continue;
      }
      if (cell !== undefined && laterRuns.has(cell.last_run_id)) continue;
      const history = `${cell?.history ?? ''}${Number(result.cited) === 1 ? 'c' : 'n'}`.slice(-HISTORY_LENGTH);
      written.push({ queryId: result.query_id, engine: result.engine, history, lastRunId: runId });
      current.push({ queryId: result.query_id, engine: result.engine, history });
    }
    for (let start = 0; start < written.length; start += WRITE_BATCH) {
      await db
        .insertInto('change_cells')
        .values(written.slice(start, start + WRITE_BATCH).map((cell) => ({ workspace_id: workspaceId, query_id: cell.queryId, engine: cell.engine, history: cell.history, last_run_id: cell.lastRunId })))
        .onConflict((oc) => oc.columns(['workspace_id', 'query_id', 'engine']).doUpdateSet((eb) => ({ history: eb.ref('excluded.history'), last_run_id: eb.ref('excluded.last_run_id') })))
        .execute();
    }

    const moved = current.filter((cell) => cell.history.endsWith(LOST) || cell.history.endsWith(GAINED));
    if (moved.length === 0) return [];
    // The workspace's queries in one read (thousands at most), rather than a list of ids that may be as long.
    const texts = new Map((await db.selectFrom('queries').select(['id', 'text']).where('workspace_id', '=', workspaceId).execute()).map((q) => [q.id, q.text]));
    return moved.map((cell): NoticedChange => {
      const lost = cell.history.endsWith(LOST);
      const query = texts.get(cell.queryId) ?? cell.queryId;
      return {
        kind: lost ? 'citation.lost' : 'citation.gained',
        dedupeKey: `${runId}:${cell.queryId}:${cell.engine}`,
        title: `${ENGINE_LABELS[cell.engine]} ${lost ? 'stopped' : 'started'} citing you for "${query}"`,
        engine: cell.engine,
        queryId: cell.queryId,
        runId,
        details: { engine: cell.engine, queryId: cell.queryId, query, history: cell.history.slice(-HISTORY_LENGTH), runId, previousRunId },
      };
    });
  },
};

/** Of the runs cells last took a letter from, those created after this run (a later run's detection came first). */
async function runsAfter(db: Kysely<Database>, workspaceId: string, runIds: string[], createdAt: number, runId: string): Promise<Set<string>> {
  const others = runIds.filter((id) => id !== runId);
  if (others.length === 0) return new Set();
  const rows = await db.selectFrom('check_runs').select(['id', 'created_at']).where('workspace_id', '=', workspaceId).where('id', 'in', others).execute();
  return new Set(rows.filter((row) => Number(row.created_at) > Number(createdAt)).map((row) => row.id));
}
