import type { Kysely, Updateable } from 'kysely';
import { z } from 'zod';
import { isPostgres } from '../../db/locks.js';
import type { BacklinksTable, Database } from '../../db/schema.js';
import { recordChanges } from '../changes/record.js';
import type { Clock } from '../clock.js';
import { enqueueJobs } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/worker.js';
import { OutboundError, type SafeFetcher } from '../outbound/safeFetch.js';
import type { BacklinkVerificationSettings } from '../outsideServices.js';
import { fetchFollowing } from '../visibility/crawlerAccess/fetchFollowing.js';
import { findLink, type LinkOnPage } from './linkOnPage.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Verifications in a row whose page could not be read before the link counts as lost (three days with the daily retry). */
export const UNREADABLE_LIMIT = 3;
/** A page that did not answer is tried again this much later, not a whole interval later. */
export const UNREADABLE_RETRY_MS = DAY_MS;
/**
 * A claimed link is not due again for this long. Its job normally ends long before; if the job is lost, the link
 * becomes due again and is claimed anew (the old job, should it still run, no longer holds it and skips it).
 */
export const CLAIM_MS = 6 * HOUR_MS;
/** Links per backlink_verify job: a job of slow pages still ends in a few minutes. */
export const LINKS_PER_JOB = 25;
/** Links one sweep claims at most; the next sweep takes the rest. */
const LINKS_PER_SWEEP = 1000;
/** Pages one job reads at once. */
const PAGES_AT_ONCE = 4;
/** Linking pages larger than this are not read (a page of links is far smaller; a bigger one is rarely a page). */
const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const USER_AGENT = 'Mozilla/5.0 (compatible; Sightline-LinkCheck/1.0)';

/** What reading a linking page told about one link. */
type Check ={ kind: 'found'; link: LinkOnPage } | { kind: 'missing' } | { kind: 'unreadable'; reason: string };

/** What reading a linking page gave: the page, a page that is gone (404, 410), or no answer to go by. */
type PageRead = { kind: 'page'; url: URL; body: Buffer; charset: string | undefined } | { kind: 'gone' } | { kind: 'unreadable'; reason: string };

/** Items grouped by key, in first-seen order (Map.groupBy arrives with Node 21). */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group === undefined) groups.set(key(item), [item]);
    else group.push(item);
  }
  return groups;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Reads a linking page as recorded through the SSRF-safe fetcher, following redirects hop by hop. http is allowed for
 * this reader alone: a page that is served over http only (many small sites) would otherwise never verify and turn
 * lost after three tries; the same goes for a redirect from https to http. The public-address checks still apply.
 */
async function readLinkingPage(outbound: SafeFetcher, linkingUrl: string, timeoutMs: number): Promise<PageRead> {
  if (!URL.canParse(linkingUrl)) return { kind: 'unreadable', reason: `${linkingUrl} is not a URL` };
  const url = new URL(linkingUrl);
  url.hash = '';
  let response;
  try {
    response = await fetchFollowing(outbound, url, {
      headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' },
      timeoutMs,
      maxBytes: MAX_PAGE_BYTES,
      allowHttp: true,
    });
  } catch (error) {
    if (error instanceof OutboundError) return { kind: 'unreadable', reason: error.message };
    throw error;
  }
  if (response.status === 404 || response.status === 410) return { kind: 'gone' };
  if (response.status < 200 || response.status > 299) return { kind: 'unreadable', reason: `${response.url.href} answered ${response.status}` };
  const type = headerValue(response.headers['content-type']);
  if (type !== undefined && !/html|xml/i.test(type)) return { kind: 'unreadable', reason: `${response.url.href} is ${type}, not an HTML page` };
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(type ?? '')?.[1];
  return { kind: 'page', url: response.url, body: response.body, charset };
}

function checkOf(page: PageRead, targetUrl: string): Check {
  if (page.kind === 'gone') return { kind: 'missing' };
  if (page.kind === 'unreadable') return page;
  const link = findLink(page, targetUrl);
  return link === undefined ? { kind: 'missing' } : { kind: 'found', link };
}

type VerifiedRow = Pick<BacklinksTable, 'status' | 'lost_at' | 'status_changed_at'> & { check_failures: number };

/**
 * The row's new state after a check. Found: verified, with the page's rel and anchor. Missing (or the page is 404/410):
 * lost, keeping the first lost date. Unreadable: unchanged with the reason, tried again in a day, and lost once it has
 * been unreadable UNREADABLE_LIMIT times in a row.
 */
function outcomeOf(row: VerifiedRow, check: Check, now: number, everyMs: number): Updateable<BacklinksTable> {
  const statusChange = (status: BacklinksTable['status']) => ({ status, status_changed_at: row.status === status ? row.status_changed_at : now });
  const lost = { ...statusChange('lost'), lost_at: row.status === 'lost' ? (row.lost_at ?? now) : now, next_check_at: now + everyMs };
  if (check.kind === 'found') {
    return {
      ...statusChange('verified'),
      dofollow: check.link.dofollow ? 1 : 0,
      anchor_text: check.link.anchorText,
      last_verified_at: now,
      lost_at: null,
      check_error: null,
      check_failures: 0,
      next_check_at: now + everyMs,
    };
  }
  if (check.kind === 'missing') return { ...lost, check_error: null, check_failures: 0 };
  const failures = row.check_failures + 1;
  if (failures >= UNREADABLE_LIMIT) return { ...lost, check_error: check.reason, check_failures: failures };
  return { check_error: check.reason, check_failures: failures, next_check_at: now + UNREADABLE_RETRY_MS };
}

/**
 * Claims due known links (never index rows) and queues their verification, LINKS_PER_JOB links a job, in one
 * transaction. The claim moves each link's next_check_at forward in the statement that selects it (on PostgreSQL
 * skipping rows another instance is claiming), so two claims never take the same link; the job carries that time as
 * its hold on the links.
 */
export async function queueDueVerifications(
  db: Kysely<Database>,
  clock: Clock,
  options: { workspaceId?: string; limit?: number } = {},
): Promise<{ links: number; jobIds: string[] }> {
  const now = clock.now();
  const claimedUntil = now + CLAIM_MS;
  const skipLocked = isPostgres(db);
  return db.transaction().execute(async (trx) => {
    let due = trx.selectFrom('backlinks').select('id').where('next_check_at', '<=', now).where('source', '!=', 'index');
    if (options.workspaceId !== undefined) due = due.where('workspace_id', '=', options.workspaceId);
    due = due.orderBy('next_check_at').limit(options.limit ?? LINKS_PER_SWEEP);
    if (skipLocked) due = due.forUpdate().skipLocked();
    const claimed = await trx
      .updateTable('backlinks')
      .set({ next_check_at: claimedUntil })
      .where('id', 'in', due)
      .where('next_check_at', '<=', now)
      .returning(['id', 'workspace_id'])
      .execute();
    const byWorkspace = groupBy(claimed, (row) => row.workspace_id);
    const jobs = [...byWorkspace].flatMap(([workspaceId, rows]) => {
      const ids = rows.map((row) => row.id).sort();
      return Array.from({ length: Math.ceil(ids.length / LINKS_PER_JOB) }, (_, i) => ({
        workspaceId,
        kind: 'backlink_verify' as const,
        payload: { backlinkIds: ids.slice(i * LINKS_PER_JOB, (i + 1) * LINKS_PER_JOB), claimedUntil },
      }));
    });
    return { links: claimed.length, jobIds: await enqueueJobs(trx, clock, jobs) };
  });
}

/** Makes the known links of one workspace (or of all) due now, for a verification on demand; answers how many. */
export async function makeKnownLinksDue(db: Kysely<Database>, clock: Clock, workspaceId?: string): Promise<number> {
  let update = db.updateTable('backlinks').set({ next_check_at: clock.now() }).where('source', '!=', 'index');
  if (workspaceId !== undefined) update = update.where('workspace_id', '=', workspaceId);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Records `backlink.lost` for a link the workspace built (through outreach or the link network) that just turned lost,
 * by the rule of outcomeOf, in the transaction that marks it. Keyed by the link and the time it was lost: a link found
 * again and lost later is a new change.
 */
async function noteLostLink(
  db: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  row: Pick<BacklinksTable, 'id' | 'linking_url' | 'target_url' | 'source' | 'anchor_text' | 'prospect_id' | 'placement_id'>,
  update: Updateable<BacklinksTable>,
): Promise<void> {
  if (row.source !== 'outreach' && row.source !== 'network') return;
  const lostAt = Number(update.lost_at);
  const reason = typeof update.check_error === 'string' ? `the page could not be read ${UNREADABLE_LIMIT} times in a row (${update.check_error})` : 'the page no longer links to the site';
  await recordChanges(db, clock, workspaceId, [
    {
      kind: 'backlink.lost',
      dedupeKey: `${row.id}:${lostAt}`,
      title: `Link from ${row.linking_url} to ${row.target_url} is lost: ${reason}`,
      details: {
        backlinkId: row.id,
        source: row.source,
        linkingUrl: row.linking_url,
        targetUrl: row.target_url,
        anchorText: row.anchor_text,
        prospectId: row.prospect_id,
        placementId: row.placement_id,
        lostAt,
        reason,
      },
    },
  ]);
}

const payloadSchema = z.object({ backlinkIds: z.array(z.string()).min(1), claimedUntil: z.number() });

export interface VerifySummary {
  /** Links this job checked: those it still held. */
  checked: number;
  verified: number;
  lost: number;
  /** Links whose page could not be read and that stay as they were until the retry. */
  unreadable: number;
}

/**
 * backlink_verify: reads each linking page of the claimed links once (a few at a time), checks each link on it and
 * records the outcome. A link is written only while the job still holds it (next_check_at as claimed), so a link made
 * due again or placed again meanwhile is left to the newer claim.
 */
export const backlinkVerifyJob: JobHandler = {
  async run(job, { db, clock, services, progress }) {
    const { backlinkIds, claimedUntil } = payloadSchema.parse(job.payload);
    const settings: BacklinkVerificationSettings = services.backlinkVerification;
    const rows = await db
      .selectFrom('backlinks')
      .select(['id', 'linking_url', 'target_url', 'status', 'lost_at', 'status_changed_at', 'check_failures', 'source', 'anchor_text', 'prospect_id', 'placement_id'])
      .where('workspace_id', '=', job.workspaceId)
      .where('id', 'in', backlinkIds)
      .where('source', '!=', 'index')
      .where('next_check_at', '=', claimedUntil)
      .execute();
    const summary: VerifySummary = { checked: rows.length, verified: 0, lost: 0, unreadable: 0 };
    const pages = [...groupBy(rows, (row) => row.linking_url)];
    let read = 0;
    const readNext = async (): Promise<void> => {
      for (let entry = pages.shift(); entry !== undefined; entry = pages.shift()) {
        const [linkingUrl, links] = entry;
        const page = await readLinkingPage(services.outbound, linkingUrl, settings.pageTimeoutMs);
        for (const row of links) {
          const update = outcomeOf(row, checkOf(page, row.target_url), clock.now(), settings.everyMs);
          const written = await db.transaction().execute(async (trx) => {
            const result = await trx
              .updateTable('backlinks')
              .set(update)
              .where('id', '=', row.id)
              .where('workspace_id', '=', job.workspaceId)
              .where('next_check_at', '=', claimedUntil)
              .executeTakeFirst();
            if (result.numUpdatedRows === 1n && row.status !== 'lost' && update.status === 'lost') await noteLostLink(trx, clock, job.workspaceId, row, update);
            return result;
          });
          if (written.numUpdatedRows === 0n) continue;
          if (update.status === 'verified') summary.verified++;
          else if (update.status === 'lost') summary.lost++;
          else summary.unreadable++;
        }
        await progress(`${++read} linking pages read`);
      }
    };
    await Promise.all(Array.from({ length: PAGES_AT_ONCE }, readNext));
    return { ...summary };
  },
};
