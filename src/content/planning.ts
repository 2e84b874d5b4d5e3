import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { toIso } from '../shared/time.js';
import type { Writer } from '../writer/model.js';
import { requireWriter } from '../writer/required.js';
import { loadBrandRow } from '../brand/readBrand.js';
import { lockWorkspace } from '../workspace/workspaces.js';
import { insertPlannedArticle, textKey } from './articles.js';
import { freeSlots, horizonEnd, loadCalendar, nextFreeSlot } from './calendar.js';
import { ideaRecord } from './ideas.js';
import { readArticlePolicy } from './policy.js';
import { checkQueryRoom, coverageOf, findQuery, findQueryByText, insertQuery, type QueryRow } from './queries.js';
import { writeCandidateTitles, writeIdeaTitle, type TitleCandidate, type TitleRequest } from './titleWriter.js';

/** Planned articles get the policy's content type and the brand's language. */
async function plannedDefaults(db: Kysely<Database>, workspaceId: string) {
  const [policy, brand] = await Promise.all([readArticlePolicy(db, workspaceId), loadBrandRow(db, workspaceId)]);
  return { contentType: policy.contentType, language: brand.default_locale };
}

function calendarFullReason(now: number): string {
  return `calendar full: no open publish slot before ${toIso(horizonEnd(now))} within the plan's monthly allowance and the policy's publish days; see get_planning_capacity`;
}

// A type alias, not an interface: operation answers must be assignable to a plain JSON object.
type NotPlanned = { created: 0; reason: string; contentId?: string };

/** Whether the query can take a new planned article: no article covers it (by query or by keyword) and a slot is open. */
async function slotForIdea(db: Kysely<Database>, workspaceId: string, queryText: string, query: QueryRow | undefined, now: number): Promise<number | NotPlanned> {
  const covering = (await coverageOf(db, workspaceId))(query?.id ?? null, queryText);
  if (covering !== null) return { created: 0, reason: `already planned: article ${covering.articleId} (${covering.status}) covers this query`, contentId: covering.articleId };
  return (await nextFreeSlot(db, workspaceId, now)) ?? { created: 0, reason: calendarFullReason(now) };
}

/**
 * Plans an idea into the next open slot with its own title, generated only when it has none; a query not yet
 * tracked is tracked (within the plan's limit). Runs outside the pipeline's transaction: the model call happens
 * between the checks and a short locked transaction that repeats them and books the slot.
 */
/** The query an idea is planned for: given as text, or as a tracked query's id (404 when not in this workspace). */
export async function ideaQueryText(db: Kysely<Database>, workspaceId: string, idea: { queryText?: string | undefined; queryId?: string | undefined }): Promise<string> {
  if (idea.queryId !== undefined) return (await findQuery(db, workspaceId, idea.queryId)).text;
  if (idea.queryText !== undefined) return idea.queryText;
  throw BadInputError.field('queryText', 'give queryText or queryId, one of them');
}

export async function planContentIdea(db: Kysely<Database>, clock: Clock, workspaceId: string, writer: Writer | undefined, queryText: string) {
  const known = await findQueryByText(db, workspaceId, queryText);
  // The same checks as below, before the model call, so a refused plan costs no tokens.
  if (known === undefined) await checkQueryRoom(db, workspaceId, 'queryText');
  const early = await slotForIdea(db, workspaceId, queryText, known, clock.now());
  if (typeof early !== 'number') return early;
  const generated = known?.suggested_title ? null : await writeIdeaTitle(requireWriter(writer), db, workspaceId, queryText);

  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const now = clock.now();
    let query = await findQueryByText(trx, workspaceId, queryText);
    const slot = await slotForIdea(trx, workspaceId, queryText, query, now);
    if (typeof slot !== 'number') return slot;
    const title = query?.suggested_title ?? generated!;
    if (query === undefined) {
      await checkQueryRoom(trx, workspaceId, 'queryText');
      query = await insertQuery(trx, clock, workspaceId, { text: queryText, source: 'idea', suggestedTitle: title });
    } else if (query.suggested_title === null) {
      // Kept on the query, so the idea has its title again if the planned article is deleted.
      await trx.updateTable('queries').set({ suggested_title: title }).where('id', '=', query.id).execute();
    }
    const { score, basedOn, metrics } = await ideaRecord(trx, workspaceId, query, now);
    const contentId = await insertPlannedArticle(trx, clock, {
      workspaceId,
      keyword: query.text,
      title,
      scheduledAt: slot,
      queryId: query.id,
      ideaMetrics: { score, basedOn, metrics },
      ...(await plannedDefaults(trx, workspaceId)),
    });
    return { created: 1 as const, contentId, title, titleGenerated: title === generated, scheduledAt: toIso(slot), queryId: query.id };
  });
}

/** Books each approved title into the next open slot, in the order given; titles past the last open slot are reported, not planned. */
export async function commitPlannedTitles(db: Kysely<Database>, clock: Clock, workspaceId: string, titles: readonly TitleCandidate[]) {
  await lockWorkspace(db, workspaceId);
  const now = clock.now();
  const [slots, defaults] = await Promise.all([loadCalendar(db, workspaceId, now).then(freeSlots), plannedDefaults(db, workspaceId)]);
  const planned = [];
  const notPlanned = [];
  for (const [index, { title, keyword }] of titles.entries()) {
    const slot = slots[index];
    if (slot === undefined) {
      notPlanned.push({ title, keyword, reason: calendarFullReason(now) });
      continue;
    }
    const query = await findQueryByText(db, workspaceId, keyword);
    const contentId = await insertPlannedArticle(db, clock, { workspaceId, keyword, title, scheduledAt: slot, queryId: query?.id ?? null, ...defaults });
    planned.push({ contentId, title, keyword, scheduledAt: toIso(slot), queryId: query?.id ?? null });
  }
  return { created: planned.length, planned, notPlanned };
}

/** Titles already in the calendar that new candidates should not repeat: the most recent ones, bounded to keep the prompt short. */
const AVOID_TITLES = 60;

/** Candidate titles from the writer model; nothing is saved. Candidates repeating a title in the calendar are dropped. */
export async function planTitles(db: Kysely<Database>, clock: Clock, workspaceId: string, writer: Writer | undefined, request: TitleRequest) {
  const model = requireWriter(writer);
  const existing = await db
    .selectFrom('articles')
    .select('title')
    .where('workspace_id', '=', workspaceId)
    .where('status', '!=', 'archived')
    .orderBy('scheduled_at', 'desc')
    .limit(AVOID_TITLES)
    .execute();
  const avoid = existing.map((row) => row.title);
  const candidates = await writeCandidateTitles(model, db, workspaceId, request, avoid);
  const seen = new Set(avoid.map(textKey));
  const fresh = candidates.filter((candidate) => {
    const key = textKey(candidate.title);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const openSlots = freeSlots(await loadCalendar(db, workspaceId, clock.now())).length;
  return { candidates: fresh, openSlots, saved: false as const };
}
