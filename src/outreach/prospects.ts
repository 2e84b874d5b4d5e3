import type { Kysely } from 'kysely';
import type { Database, OutreachStage } from '../../db/schema.js';
import { recordPlacedLink } from '../backlinks/knownLinks.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { newId } from '../ids.js';
import { pageOf, pageOffset, type PageRequest } from '../shared/paging.js';
import { toIso } from '../shared/time.js';
import { domainOf } from '../shared/urls.js';
import { findProspect, moveProspect, OUTREACH_STAGES, type ProspectRow } from './stages.js';

/** What a prospect looks like in answers; `contact` is null until one is found or imported. */
export function prospectRecord(row: ProspectRow) {
  return {
    prospectId: row.id,
    domain: row.domain,
    pageUrl: row.page_url,
    title: row.title,
    origin: row.origin,
    reason: row.reason,
    targetUrl: row.target_url,
    stage: row.stage,
    stageChangedAt: toIso(Number(row.stage_changed_at)),
    contact:
      row.contact_email === null
        ? null
        : {
            email: row.contact_email,
            name: row.contact_name,
            confidence: row.contact_confidence,
            source: row.contact_source,
            foundAt: toIso(row.contact_found_at === null ? null : Number(row.contact_found_at)),
          },
    createdAt: toIso(Number(row.created_at)),
  };
}

export interface ProspectListRequest extends PageRequest {
  stage?: OutreachStage | undefined;
}

/** The pipeline: prospects whose stage changed last first, a page at a time, with the count in every stage. */
export async function listProspects(db: Kysely<Database>, workspaceId: string, request: ProspectListRequest) {
  let rows = db.selectFrom('outreach_prospects').selectAll().where('workspace_id', '=', workspaceId);
  if (request.stage !== undefined) rows = rows.where('stage', '=', request.stage);
  const [page, perStage] = await Promise.all([
    rows.orderBy('stage_changed_at', 'desc').orderBy('id', 'desc').limit(request.limit).offset(pageOffset(request)).execute(),
    db
      .selectFrom('outreach_prospects')
      .select(['stage', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('workspace_id', '=', workspaceId)
      .groupBy('stage')
      .execute(),
  ]);
  const counts = Object.fromEntries(OUTREACH_STAGES.map((stage) => [stage, Number(perStage.find((row) => row.stage === stage)?.n ?? 0)])) as Record<OutreachStage, number>;
  const total = request.stage === undefined ? Object.values(counts).reduce((sum, n) => sum + n, 0) : counts[request.stage];
  return { ...pageOf(request, total), counts, prospects: page.map(prospectRecord) };
}

/** A bare host name as people type it: lower-cased, `www.` dropped, at least two labels. */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

export function normaliseDomain(text: string): string | undefined {
  const domain = text.trim().toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
  return HOST_NAME.test(domain) ? domain : undefined;
}

/** Whether `host` is `domain` or one of its subdomains. */
export function onDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

export interface ImportedProspect {
  url?: string | undefined;
  domain?: string | undefined;
  contactEmail?: string | undefined;
  contactName?: string | undefined;
  note?: string | undefined;
}

type SkipReason = 'exists' | 'duplicate' | 'own_site';

/** Rows looked up or written per statement: well under either database's bound-parameter limit. */
const CHUNK = 200;

/**
 * The owner's own prospects (a CSV import through the CLI): origin `import`. A domain the workspace already has keeps
 * its row and stage untouched; the workspace's own site and repeats inside the list are skipped too.
 */
export async function addProspects(db: Kysely<Database>, clock: Clock, workspaceId: string, items: readonly ImportedProspect[]) {
  const workspace = await db.selectFrom('workspaces').select('website_url').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  const ownDomain = domainOf(workspace.website_url);
  const parsed = items.map((item, index) => {
    const domain = item.url !== undefined ? domainOf(item.url) : normaliseDomain(item.domain ?? '');
    if (domain === undefined || normaliseDomain(domain) === undefined) {
      throw item.url !== undefined
        ? BadInputError.field(`prospects[${index}].url`, 'must be a URL on a named site (not an IP address or a bare host)')
        : BadInputError.field(`prospects[${index}].domain`, 'must be a domain name such as example.com');
    }
    return { item, domain };
  });
  const existing = new Set<string>();
  const domains = [...new Set(parsed.map((p) => p.domain))];
  for (let i = 0; i < domains.length; i += CHUNK) {
    const rows = await db.selectFrom('outreach_prospects').select('domain').where('workspace_id', '=', workspaceId).where('domain', 'in', domains.slice(i, i + CHUNK)).execute();
    for (const row of rows) existing.add(row.domain);
  }
  const now = clock.now();
  const seen = new Set<string>();
  const results: { domain: string; prospectId: string | null; added: boolean; skipped: SkipReason | null }[] = [];
  const rows = [];
  for (const { item, domain } of parsed) {
    const skipped: SkipReason | null = ownDomain !== undefined && onDomain(domain, ownDomain) ? 'own_site' : existing.has(domain) ? 'exists' : seen.has(domain) ? 'duplicate' : null;
    seen.add(domain);
    if (skipped !== null) {
      results.push({ domain, prospectId: null, added: false, skipped });
      continue;
    }
    const id = newId('pros');
    const email = item.contactEmail?.trim().toLowerCase() ?? null;
    rows.push({
      id,
      workspace_id: workspaceId,
      domain,
      page_url: item.url ?? null,
      title: null,
      origin: 'import' as const,
      reason: item.note === undefined || item.note.trim() === '' ? 'Imported by the owner' : `Imported by the owner: ${item.note.trim()}`,
      target_url: null,
      stage: 'identified' as const,
      stage_changed_at: now,
      contact_email: email,
      contact_name: email === null ? null : (item.contactName?.trim() ?? null),
      // The owner named this person: no finder's guess to weigh it by.
      contact_confidence: null,
      contact_source: email === null ? null : 'import',
      contact_found_at: email === null ? null : now,
      created_at: now,
    });
    results.push({ domain, prospectId: id, added: true, skipped: null });
  }
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto('outreach_prospects')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(['workspace_id', 'domain']).doNothing())
      .execute();
  }
  return { added: rows.length, skipped: results.length - rows.length, prospects: results };
}

export interface StatusChange {
  prospectId: string;
  stage: OutreachStage;
  linkingUrl?: string | undefined;
  targetUrl?: string | undefined;
  anchorText?: string | undefined;
}

/**
 * Moves a prospect along `STAGE_MOVES`. `link_placed` records the link as a backlink (source `outreach`) that
 * verification then checks: on `linkingUrl`, to `targetUrl` (else the prospect's target, else the website).
 */
export async function setProspectStage(db: Kysely<Database>, clock: Clock, workspaceId: string, change: StatusChange) {
  const prospect = await findProspect(db, workspaceId, change.prospectId);
  const placing = change.stage === 'link_placed';
  if (!placing) {
    for (const field of ['linkingUrl', 'targetUrl', 'anchorText'] as const) {
      if (change[field] !== undefined) throw BadInputError.field(field, 'only goes with stage link_placed');
    }
  } else if (change.linkingUrl === undefined) {
    throw BadInputError.field('linkingUrl', 'is required with stage link_placed: the page where the link now is');
  }
  const previousStage = prospect.stage;
  if (!(await moveProspect(db, clock, prospect, change.stage))) {
    throw BadInputError.field('stage', `prospect ${prospect.id} was moved meanwhile; read it again`);
  }
  let backlinkId: string | null = null;
  if (placing) {
    const workspace = await db.selectFrom('workspaces').select('website_url').where('id', '=', workspaceId).executeTakeFirstOrThrow();
    const targetUrl = change.targetUrl ?? prospect.target_url ?? workspace.website_url;
    backlinkId = await recordPlacedLink(db, clock, {
      workspaceId,
      linkingUrl: change.linkingUrl!,
      targetUrl,
      anchorText: change.anchorText ?? '',
      dofollow: true,
      source: 'outreach',
      prospectId: prospect.id,
    });
    if (targetUrl !== prospect.target_url) await db.updateTable('outreach_prospects').set({ target_url: targetUrl }).where('id', '=', prospect.id).execute();
  }
  const moved = await findProspect(db, workspaceId, prospect.id);
  return { previousStage, backlinkId, prospect: prospectRecord(moved) };
}
