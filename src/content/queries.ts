import type { Kysely, Selectable } from 'kysely';
import type { ArticleStatus, Database, QueriesTable } from '../../db/schema.js';
import { notePlanUsage } from '../changes/planLimits.js';
import type { Clock } from '../clock.js';
import { BadInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { PLANS } from '../plans.js';
import { toIso } from '../shared/time.js';
import { loadTeamWorkspace } from '../team/seats.js';
import { lockWorkspace } from '../workspace/workspaces.js';
import { noteQueryWording } from '../visibility/rankings/latestChecks.js';
import { textKey, tidyText } from './articles.js';

export type QueryRow = Selectable<QueriesTable>;
export type QuerySource = QueriesTable['source'];

export interface Coverage {
  articleId: string;
  status: ArticleStatus;
}

/**
 * Which article covers each query: a non-archived article planned from it, or one whose keyword has the same wording
 * (titles committed from plan_titles name a keyword, not a query). The latest scheduled one wins.
 */
export async function coverageOf(db: Kysely<Database>, workspaceId: string): Promise<(queryId: string | null, text: string) => Coverage | null> {
  const articles = await db
    .selectFrom('articles')
    .select(['id', 'status', 'keyword', 'query_id'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '!=', 'archived')
    .orderBy('scheduled_at')
    .orderBy('id')
    .execute();
  const byQuery = new Map<string, Coverage>();
  const byKeyword = new Map<string, Coverage>();
  for (const article of articles) {
    const coverage = { articleId: article.id, status: article.status };
    if (article.query_id !== null) byQuery.set(article.query_id, coverage);
    byKeyword.set(textKey(article.keyword), coverage);
  }
  return (queryId, text) => (queryId === null ? undefined : byQuery.get(queryId)) ?? byKeyword.get(textKey(text)) ?? null;
}

export function queryRecord(row: QueryRow, coverage: Coverage | null) {
  return {
    id: row.id,
    text: row.text,
    source: row.source,
    hidden: row.hidden_at !== null,
    suggestedTitle: row.suggested_title,
    createdAt: toIso(row.created_at),
    articleId: coverage?.articleId ?? null,
    articleStatus: coverage?.status ?? null,
  };
}

export async function findQueryByText(db: Kysely<Database>, workspaceId: string, text: string): Promise<QueryRow | undefined> {
  return db.selectFrom('queries').selectAll().where('workspace_id', '=', workspaceId).where('text_key', '=', textKey(text)).executeTakeFirst();
}

export async function findQuery(db: Kysely<Database>, workspaceId: string, queryId: string): Promise<QueryRow> {
  const row = await db.selectFrom('queries').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', queryId).executeTakeFirst();
  if (row === undefined) throw new NotFoundError('query', queryId);
  return row;
}

export interface QueryUsage {
  used: number;
  limit: number;
}

/** Every tracked query counts, hidden ones too: hiding an idea keeps the query's weekly checks. */
export async function queryUsage(db: Kysely<Database>, workspaceId: string): Promise<QueryUsage> {
  const [workspace, count] = await Promise.all([
    loadTeamWorkspace(db, workspaceId),
    db.selectFrom('queries').select((eb) => eb.fn.countAll<number | string>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow(),
  ]);
  return { used: Number(count.n), limit: PLANS[workspace.plan].trackedQueries };
}

/** Refuses, naming `field`, when one more tracked query would go over the plan's limit. */
export async function checkQueryRoom(db: Kysely<Database>, workspaceId: string, field: string): Promise<void> {
  const usage = await queryUsage(db, workspaceId);
  if (usage.used >= usage.limit) {
    throw BadInputError.field(field, `the plan allows ${usage.limit} tracked queries and all ${usage.used} are in use; this query would go over the limit`);
  }
}

export interface NewQuery {
  text: string;
  source: QuerySource;
  suggestedTitle?: string | null;
}

/** Adds a query without checking the plan's limit: the caller has (or, for a returned keyword, deliberately has not). */
export async function insertQuery(db: Kysely<Database>, clock: Clock, workspaceId: string, query: NewQuery): Promise<QueryRow> {
  const row: QueryRow = {
    id: newId('qry'),
    workspace_id: workspaceId,
    text: tidyText(query.text),
    text_key: textKey(query.text),
    source: query.source,
    suggested_title: query.suggestedTitle ?? null,
    hidden_at: null,
    created_at: clock.now(),
  };
  await db.insertInto('queries').values(row).execute();
  await noteQueryWording(db, row);
  const [usage, workspace] = await Promise.all([queryUsage(db, workspaceId), loadTeamWorkspace(db, workspaceId)]);
  await notePlanUsage(db, clock, workspaceId, { limit: 'trackedQueries', used: usage.used, of: usage.limit, plan: workspace.plan, month: toIso(row.created_at).slice(0, 7) });
  return row;
}

/** The tracked-query pool, oldest first, with the article covering each query. */
export async function listQueries(db: Kysely<Database>, workspaceId: string) {
  const [rows, coverage, usage] = await Promise.all([
    db.selectFrom('queries').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute(),
    coverageOf(db, workspaceId),
    queryUsage(db, workspaceId),
  ]);
  return { queries: rows.map((row) => queryRecord(row, coverage(row.id, row.text))), usage };
}

/**
 * Tracks a query; the same wording (case and spacing aside) answers the query already tracked instead of adding a
 * second. Adding a hidden query again shows it among the ideas again: asking for it is the clearest sign it is wanted.
 */
export async function addQuery(db: Kysely<Database>, clock: Clock, workspaceId: string, text: string) {
  await lockWorkspace(db, workspaceId);
  const existing = await findQueryByText(db, workspaceId, text);
  let row = existing;
  if (row === undefined) {
    await checkQueryRoom(db, workspaceId, 'text');
    row = await insertQuery(db, clock, workspaceId, { text, source: 'user' });
  } else if (row.hidden_at !== null) {
    await db.updateTable('queries').set({ hidden_at: null }).where('id', '=', row.id).execute();
    row = { ...row, hidden_at: null };
  }
  const coverage = await coverageOf(db, workspaceId);
  return { created: existing === undefined, query: queryRecord(row, coverage(row.id, row.text)), usage: await queryUsage(db, workspaceId) };
}

export interface QueryChange {
  text?: string | undefined;
  hidden?: boolean | undefined;
}

/**
 * Rewords a tracked query or hides it from the content ideas (it keeps its weekly checks either way). The new wording
 * must not be another tracked query's; answers recorded before keep the wording they were asked with.
 */
export async function updateQuery(db: Kysely<Database>, clock: Clock, workspaceId: string, queryId: string, change: QueryChange) {
  await lockWorkspace(db, workspaceId);
  let row = await findQuery(db, workspaceId, queryId);
  if (change.text !== undefined) {
    const same = await findQueryByText(db, workspaceId, change.text);
    if (same !== undefined && same.id !== row.id) throw BadInputError.field('text', `is already tracked as query ${same.id}`);
    row = { ...row, text: tidyText(change.text), text_key: textKey(change.text) };
  }
  if (change.hidden !== undefined && change.hidden !== (row.hidden_at !== null)) row = { ...row, hidden_at: change.hidden ? clock.now() : null };
  await db.updateTable('queries').set({ text: row.text, text_key: row.text_key, hidden_at: row.hidden_at }).where('id', '=', row.id).execute();
  if (change.text !== undefined) await noteQueryWording(db, row);
  const coverage = await coverageOf(db, workspaceId);
  return { query: queryRecord(row, coverage(row.id, row.text)) };
}

/** What removing a query takes with it, for the dry run and the answer. */
async function removalCounts(db: Kysely<Database>, workspaceId: string, queryId: string) {
  const [answers, rankChecks, pending] = await Promise.all([
    db.selectFrom('engine_answers').select((eb) => eb.fn.countAll<number | string>().as('n')).where('workspace_id', '=', workspaceId).where('query_id', '=', queryId).executeTakeFirstOrThrow(),
    db.selectFrom('rank_checks').select((eb) => eb.fn.countAll<number | string>().as('n')).where('workspace_id', '=', workspaceId).where('query_id', '=', queryId).executeTakeFirstOrThrow(),
    db
      .selectFrom('jobs')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('subject_id', '=', queryId)
      .where('kind', 'in', ['engine_check', 'rank_check'])
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirst(),
  ]);
  return { answers: Number(answers.n), rankChecks: Number(rankChecks.n), checkInProgress: pending !== undefined };
}

/** The query and what removing it takes with it; refused while a check run still has to ask it, as the run counts on that check. */
async function plannedRemoval(db: Kysely<Database>, workspaceId: string, queryId: string) {
  const row = await findQuery(db, workspaceId, queryId);
  const counts = await removalCounts(db, workspaceId, queryId);
  if (counts.checkInProgress) throw BadInputError.field('queryId', 'a check run is still asking this query; remove it once the run has finished');
  return { row, counts };
}

export async function describeQueryRemoval(db: Kysely<Database>, workspaceId: string, queryId: string): Promise<string> {
  const { row, counts } = await plannedRemoval(db, workspaceId, queryId);
  return (
    `Would stop tracking "${row.text}" and delete its ${counts.answers} recorded engine answers and ${counts.rankChecks} rank checks, freeing one tracked-query slot. ` +
    'Daily visibility figures already computed keep counting them; an article planned from it stays.'
  );
}

export async function removeQuery(db: Kysely<Database>, workspaceId: string, queryId: string) {
  await lockWorkspace(db, workspaceId);
  const { counts } = await plannedRemoval(db, workspaceId, queryId);
  // Answers and rank checks go with it (foreign keys cascade); articles keep their keyword and lose the link.
  await db.deleteFrom('queries').where('workspace_id', '=', workspaceId).where('id', '=', queryId).execute();
  return { removed: true as const, queryId, deletedAnswers: counts.answers, deletedRankChecks: counts.rankChecks, usage: await queryUsage(db, workspaceId) };
}
