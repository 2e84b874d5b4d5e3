import type { Kysely, Selectable } from 'kysely';
import { getDomain } from 'tldts';
import type { CompetitorsTable, Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { notePlanUsage } from '../../changes/planLimits.js';
import { fromJson, toJson } from '../../shared/json.js';
import { toIso } from '../../shared/time.js';
import { loadTeamWorkspace } from '../../team/seats.js';
import { lockWorkspace, normaliseWebsiteUrl } from '../../workspace/workspaces.js';
import { BadInputError, NotFoundError } from '../../errors.js';
import { newId } from '../../ids.js';
import { PLANS } from '../../plans.js';
import type { Services } from '../../outsideServices.js';
import type { SerpClient } from '../serp/serp.js';
import { domainOf } from '../../shared/urls.js';
import { rate, type Rate } from '../metrics/wilson.js';
import { positioningRecord } from './positioning.js';
import { SERP } from '../../integrations/dataforseo/provider.js';
import { nameList } from '../../integrations/kit/declaration.js';

/** The specification's cap on tracked competitors; a plan may allow fewer. */
export const MAX_COMPETITORS = 10;
export const SERP_SETTINGS = nameList(SERP.turnedOnBy);

export type CompetitorRow = Selectable<CompetitorsTable>;

/** The registrable domain of a website (blog.rival.com gives rival.com), or its host when it has none (an IP address). */
export function competitorDomain(websiteUrl: string): string {
  return getDomain(websiteUrl, { allowPrivateDomains: true }) ?? domainOf(websiteUrl) ?? websiteUrl;
}

export interface CompetitorUsage {
  used: number;
  /** The lower of MAX_COMPETITORS and the plan's number. */
  limit: number;
}

export async function competitorUsage(db: Kysely<Database>, workspaceId: string): Promise<CompetitorUsage> {
  const [workspace, count] = await Promise.all([
    loadTeamWorkspace(db, workspaceId),
    db
      .selectFrom('competitors')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('removed_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return { used: Number(count.n), limit: Math.min(MAX_COMPETITORS, PLANS[workspace.plan].competitors) };
}

/** A tracked (not removed) competitor of this workspace, else 404. */
export async function findCompetitor(db: Kysely<Database>, workspaceId: string, competitorId: string): Promise<CompetitorRow> {
  const row = await db
    .selectFrom('competitors')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', competitorId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError('competitor', competitorId);
  return row;
}

export interface NewCompetitor {
  name: string;
  websiteUrl?: string | undefined;
  aliases?: string[] | undefined;
}

/** Refuses, before anything is stored, a competitor over the limit, on the workspace's own site, or tracked already. */
async function checkRoom(db: Kysely<Database>, workspaceId: string, domain: string | undefined): Promise<void> {
  const usage = await competitorUsage(db, workspaceId);
  if (usage.used >= usage.limit) {
    throw BadInputError.field(
      'name',
      `at most ${usage.limit} competitors are tracked in this workspace (${MAX_COMPETITORS} at most, fewer on some plans) and all ${usage.used} are in use; remove one with remove_competitor first`,
    );
  }
  if (domain === undefined) return;
  const workspace = await loadTeamWorkspace(db, workspaceId);
  if (competitorDomain(workspace.websiteUrl) === domain) throw BadInputError.field('websiteUrl', `${domain} is this workspace's own site, not a competitor's`);
  const same = await db
    .selectFrom('competitors')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .where('domain', '=', domain)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (same !== undefined) throw BadInputError.field('websiteUrl', `${domain} is already tracked as the competitor "${same.name}"`);
}

function givenWebsite(url: string): string {
  try {
    return normaliseWebsiteUrl(url);
  } catch (error) {
    throw BadInputError.field('websiteUrl', (error as Error).message);
  }
}

/** The website the SERP provider finds for a name; 400s that say what to send instead. */
async function findWebsite(serp: SerpClient | undefined, name: string, locale: string): Promise<string> {
  if (serp === undefined) {
    throw BadInputError.field('websiteUrl', `is required: no SERP provider is configured to find the website from the name (the operator sets ${SERP_SETTINGS})`);
  }
  let found: string | undefined;
  try {
    found = await serp.findWebsite(name, { locale });
  } catch (error) {
    throw BadInputError.field('websiteUrl', `is required: the website search for "${name}" failed (${error instanceof Error ? error.message : String(error)}); send websiteUrl`);
  }
  if (found === undefined) throw BadInputError.field('name', `no website was found for "${name}"; check the name or send websiteUrl`);
  return found;
}

/**
 * Tracks a competitor from the next check run on. Without websiteUrl the SERP provider finds the website from the
 * name; that call runs outside any transaction, and the insert then runs in a short one under the workspace lock,
 * which checks the limit and the domain again.
 */
export async function addCompetitor(db: Kysely<Database>, clock: Clock, services: Pick<Services, 'serp' | 'writer'>, workspaceId: string, input: NewCompetitor) {
  const given = input.websiteUrl === undefined ? undefined : givenWebsite(input.websiteUrl);
  await checkRoom(db, workspaceId, given === undefined ? undefined : competitorDomain(given));
  let websiteUrl = given;
  if (websiteUrl === undefined) {
    const locale = (await db.selectFrom('brands').select('default_locale').where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()).default_locale;
    websiteUrl = normaliseWebsiteUrl(await findWebsite(services.serp, input.name, locale));
  }
  const domain = competitorDomain(websiteUrl);
  const row: CompetitorRow = {
    id: newId('cmp'),
    workspace_id: workspaceId,
    name: input.name,
    website_url: websiteUrl,
    domain,
    aliases: toJson(input.aliases ?? []),
    positioning: null,
    created_at: clock.now(),
    removed_at: null,
  };
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    await checkRoom(trx, workspaceId, domain);
    await trx.insertInto('competitors').values(row).execute();
    const usage = await competitorUsage(trx, workspaceId);
    const { plan } = await loadTeamWorkspace(trx, workspaceId);
    await notePlanUsage(trx, clock, workspaceId, { limit: 'competitors', used: usage.used, of: usage.limit, plan, month: toIso(row.created_at).slice(0, 7) });
    return { competitor: competitorRecord(row, subjectNumbers(domain, NO_COUNTS), services.writer !== undefined), websiteFound: given === undefined, usage };
  });
}

export async function describeRemoval(db: Kysely<Database>, workspaceId: string, competitorId: string): Promise<string> {
  const row = await findCompetitor(db, workspaceId, competitorId);
  return `Remove competitor ${row.name} (${row.domain}) from tracking? It is no longer checked or listed; answers already recorded keep their data.`;
}

/** Stops tracking a competitor (after the owner approved): not checked or listed any more; past answers keep their data. */
export async function removeCompetitor(db: Kysely<Database>, clock: Clock, workspaceId: string, competitorId: string) {
  const row = await findCompetitor(db, workspaceId, competitorId);
  const now = clock.now();
  await db.updateTable('competitors').set({ removed_at: now }).where('id', '=', row.id).where('removed_at', 'is', null).execute();
  return { competitorId: row.id, name: row.name, removed: true as const, removedAt: toIso(now) };
}

export interface SubjectCounts {
  answers: number;
  answersWithCitations: number;
  cited: number;
  mentioned: number;
  failed: number;
}

export const NO_COUNTS: SubjectCounts = { answers: 0, answersWithCitations: 0, cited: 0, mentioned: 0, failed: 0 };

export function subjectNumbers(domain: string, counts: SubjectCounts): SubjectNumbers {
  const mentionRate = rate(counts.cited + counts.mentioned, counts.answers);
  return {
    aiVisibilityScore: mentionRate.rate === null ? null : Math.round(mentionRate.rate * 1000) / 10,
    mentionRate,
    citations: { cited: counts.cited, mentioned: counts.mentioned, checks: counts.answers, failed: counts.failed },
    domainMetrics: { domain, citedInAnswers: counts.cited, answersWithCitations: counts.answersWithCitations, citationRate: rate(counts.cited, counts.answersWithCitations) },
  };
}

export interface SubjectNumbers {
  /** 100 x the mention rate over the window, one decimal; null without answers. */
  aiVisibilityScore: number | null;
  /** Answers citing or mentioning the subject / answers given, with its 95 % interval. */
  mentionRate: Rate;
  /** `checks`: answers given; `failed`: checks that got no answer (not in `checks`); cited and mentioned never overlap. */
  citations: { cited: number; mentioned: number; checks: number; failed: number };
  /** Answers citing the domain (or a subdomain) out of the answers citing anything. */
  domainMetrics: { domain: string; citedInAnswers: number; answersWithCitations: number; citationRate: Rate };
}

export function competitorRecord(row: CompetitorRow, numbers: SubjectNumbers, writerConfigured: boolean) {
  return {
    competitorId: row.id,
    name: row.name,
    websiteUrl: row.website_url,
    aliases: fromJson<string[]>(row.aliases),
    ...numbers,
    positioning: positioningRecord(row.positioning, writerConfigured),
    createdAt: toIso(row.created_at),
  };
}
