import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { withNamedLock } from '../../db/locks.js';
import type { Clock } from '../clock.js';
import { fromJson } from '../shared/json.js';
import { enqueueJobs, workspacesWithJob } from '../jobs/queue.js';
import type { JobDeps, JobHandler } from '../jobs/worker.js';
import type { Writer } from '../writer/model.js';
import { ACTIVE_STATES, NETWORK_LOCK, primaryLanguage } from './network.js';
import { type Match, proposePlacement, settleDecisions } from './placements.js';

/** Host articles and target pages read per member site: the newest, so a large site's matching stays bounded. */
const PER_SITE = 200;
/** Ids per cache lookup. */
const LOOKUP_CHUNK = 500;
/** Texts per embeddings request. */
const EMBED_BATCH = 64;
/** The opening of an article that is embedded with its title and keywords: enough to tell its topic. */
const ARTICLE_CHARS = 2000;

interface Subject {
  workspaceId: string;
  id: string;
  kind: 'article' | 'page';
  url: string;
  title: string | null;
  language: string;
  text: string;
}

function articleText(row: { title: string; keywords: string; markdown: string | null }): string {
  return [row.title, fromJson<string[]>(row.keywords).join(', '), (row.markdown ?? '').slice(0, ARTICLE_CHARS)].join('\n');
}

/** At most PER_SITE of each site's rows, in the order given. */
function perSite<T extends { workspace_id: string }>(rows: readonly T[]): T[] {
  const counts = new Map<string, number>();
  return rows.filter((row) => {
    const n = (counts.get(row.workspace_id) ?? 0) + 1;
    counts.set(row.workspace_id, n);
    return n <= PER_SITE;
  });
}

/** Members' published articles with a live URL; `free`: only those without a proposed or live network link (hosts). */
async function memberArticles(db: Kysely<Database>, workspaceIds: readonly string[], free: boolean): Promise<Subject[]> {
  let query = db
    .selectFrom('articles')
    .select(['id', 'workspace_id', 'title', 'keywords', 'markdown', 'url', 'language'])
    .where('workspace_id', 'in', workspaceIds)
    .where('status', '=', 'published')
    .where('url', 'is not', null);
  if (free) {
    query = query.where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('network_placements').select('id').whereRef('host_article_id', '=', 'articles.id').where('state', 'in', ACTIVE_STATES))),
    );
  }
  const rows = perSite(await query.orderBy('published_at', 'desc').orderBy('id').execute());
  return rows.map((row) => ({ workspaceId: row.workspace_id, id: row.id, kind: 'article' as const, url: row.url!, title: row.title, language: row.language, text: articleText(row) }));
}

/** Members' site pages, in the language of their brand (pages carry none of their own). */
async function memberPages(db: Kysely<Database>, workspaceIds: readonly string[]): Promise<Subject[]> {
  const rows = await db
    .selectFrom('site_pages')
    .innerJoin('brands', 'brands.workspace_id', 'site_pages.workspace_id')
    .select(['site_pages.id', 'site_pages.workspace_id', 'site_pages.url', 'site_pages.title', 'site_pages.keywords', 'brands.default_locale'])
    .where('site_pages.workspace_id', 'in', workspaceIds)
    .orderBy('site_pages.created_at', 'desc')
    .orderBy('site_pages.id')
    .execute();
  return perSite(rows).map((row) => {
    const text = [row.title ?? '', fromJson<string[]>(row.keywords).join(', '), new URL(row.url).pathname.replace(/[/_-]+/g, ' ')].join('\n');
    return { workspaceId: row.workspace_id, id: row.id, kind: 'page' as const, url: row.url, title: row.title, language: row.default_locale, text };
  });
}

/** Embeddings of the subjects, from the cache where the text and model are unchanged, else from the writer (then cached). */
async function embeddings(db: Kysely<Database>, clock: Clock, writer: Writer, model: string, deps: JobDeps, subjects: readonly Subject[]): Promise<Map<string, number[]>> {
  const vectors = new Map<string, number[]>();
  const hashes = new Map(subjects.map((s) => [s.id, createHash('sha256').update(s.text).digest('hex')]));
  // In chunks: one statement per thousands of ids would pass either database's limit on bound parameters.
  for (let i = 0; i < subjects.length; i += LOOKUP_CHUNK) {
    const ids = subjects.slice(i, i + LOOKUP_CHUNK).map((s) => s.id);
    const cached = await db.selectFrom('network_embeddings').selectAll().where('subject_id', 'in', ids).execute();
    for (const row of cached) if (row.model === model && hashes.get(row.subject_id) === row.text_hash) vectors.set(row.subject_id, fromJson<number[]>(row.vector));
  }
  // Each member's texts are booked to that member, whichever member's run embeds them: its ledger shows its own content.
  const missing = new Map<string, Subject[]>();
  for (const subject of subjects) {
    if (!vectors.has(subject.id)) missing.set(subject.workspaceId, [...(missing.get(subject.workspaceId) ?? []), subject]);
  }
  for (const [workspaceId, own] of missing) {
    for (let i = 0; i < own.length; i += EMBED_BATCH) {
      const batch = own.slice(i, i + EMBED_BATCH);
      const embedded = await writer.embed(
        batch.map((s) => s.text),
        { workspaceId, purpose: 'network_match', meter: deps.usage },
      );
      for (const [index, subject] of batch.entries()) {
        const vector = embedded[index]!;
        vectors.set(subject.id, vector);
        const row = { text_hash: hashes.get(subject.id)!, model, vector: JSON.stringify(vector), embedded_at: clock.now() };
        await db
          .insertInto('network_embeddings')
          .values({ workspace_id: subject.workspaceId, subject_id: subject.id, ...row })
          .onConflict((oc) => oc.columns(['workspace_id', 'subject_id']).doUpdateSet(row))
          .execute();
      }
    }
  }
  return vectors;
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

async function noteMatch(db: Kysely<Database>, workspaceId: string, at: number, note: string): Promise<void> {
  await db.updateTable('network_members').set({ last_match_at: at, last_match_note: note }).where('workspace_id', '=', workspaceId).execute();
}

/**
 * Matches one member's articles (as hosts) and pages (as targets) with every other member's, proposes the pairs above
 * the similarity threshold in the same language, best first, each under the network lock and the rules. Writes what
 * it did, or why it proposed nothing, on the membership.
 */
export async function matchWorkspace(deps: JobDeps, workspaceId: string): Promise<{ proposed: number; considered: number; note: string }> {
  const { db, clock, services } = deps;
  await settleDecisions(db, clock, workspaceId);
  const member = await db.selectFrom('network_members').select('member').where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (member?.member !== 1) return { proposed: 0, considered: 0, note: 'not a member of the link network' };
  const writer = services.writer;
  const model = writer?.embeddingModel;
  if (writer === undefined || model === undefined) {
    const note = `nothing proposed: matching needs embeddings, and ${writer === undefined ? 'no writer model is configured (WRITER_BASE_URL, WRITER_MODEL) nor ' : ''}no embedding model is configured: the operator sets WRITER_EMBEDDING_MODEL`;
    await noteMatch(db, workspaceId, clock.now(), note);
    return { proposed: 0, considered: 0, note };
  }
  const others = (await db.selectFrom('network_members').select('workspace_id').where('member', '=', 1).where('workspace_id', '!=', workspaceId).execute()).map((r) => r.workspace_id);
  const hosts = await memberArticles(db, [workspaceId, ...others], true);
  const targets = [...(await memberArticles(db, [workspaceId, ...others], false)), ...(await memberPages(db, [workspaceId, ...others]))];
  // Only pairs with this workspace on one side and another member on the other, in the same language.
  const pairs = hosts.flatMap((host) =>
    targets
      .filter((target) => target.workspaceId !== host.workspaceId && (host.workspaceId === workspaceId || target.workspaceId === workspaceId))
      .filter((target) => primaryLanguage(target.language) === primaryLanguage(host.language))
      .map((target) => ({ host, target })),
  );
  const involved = new Map<string, Subject>();
  for (const { host, target } of pairs) involved.set(host.id, host).set(target.id, target);
  const vectors = await embeddings(db, clock, writer, model, deps, [...involved.values()]);
  const threshold = services.linkNetwork.similarityThreshold;
  const matches: Match[] = pairs
    .map(({ host, target }) => ({
      hostWorkspaceId: host.workspaceId,
      hostArticleId: host.id,
      hostTitle: host.title ?? host.url,
      hostUrl: host.url,
      targetWorkspaceId: target.workspaceId,
      targetKind: target.kind,
      targetSubjectId: target.id,
      targetUrl: target.url,
      targetTitle: target.title,
      similarity: cosine(vectors.get(host.id)!, vectors.get(target.id)!),
      language: host.language,
    }))
    .filter((match) => match.similarity > threshold)
    .sort((a, b) => b.similarity - a.similarity);
  let proposed = 0;
  const refusals = new Map<string, number>();
  for (const match of matches) {
    const outcome = await withNamedLock(db, NETWORK_LOCK, clock.now(), (trx) => proposePlacement(trx, clock, services.linkNetwork, match));
    if ('placementId' in outcome) proposed++;
    else refusals.set(outcome.refused, (refusals.get(outcome.refused) ?? 0) + 1);
  }
  const refused = [...refusals.entries()].map(([reason, n]) => `${n} refused: ${reason}`).join('; ');
  const note =
    `${proposed} placement${proposed === 1 ? '' : 's'} proposed from ${pairs.length} pairs of articles and pages in the same language; ` +
    `${matches.length} above the similarity threshold ${threshold}${refused === '' ? '' : `; ${refused}`}`;
  await noteMatch(db, workspaceId, clock.now(), note);
  return { proposed, considered: pairs.length, note };
}

export const linkNetworkMatchJob: JobHandler = {
  run: (job, deps) => matchWorkspace(deps, job.workspaceId),
};

/** The daily sweep: settles lapsed approvals and queues a matching job for each member without one waiting. */
export async function queueNetworkMatches(db: Kysely<Database>, clock: Clock): Promise<number> {
  await settleDecisions(db, clock);
  const members = await db
    .selectFrom('network_members')
    .select('workspace_id')
    .where('member', '=', 1)
    .where('workspace_id', 'not in', workspacesWithJob(db, 'link_network_match'))
    .execute();
  await enqueueJobs(
    db,
    clock,
    members.map((m) => ({ workspaceId: m.workspace_id, kind: 'link_network_match' as const, subjectId: m.workspace_id })),
  );
  return members.length;
}
