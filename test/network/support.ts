import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { LinkAttribute, PlacementState } from '../../db/schema.js';
import { newId } from '../../src/ids.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { requestApproval } from '../../src/approvals/approvals.js';
import type { TestService, TestWorkspace } from '../support/harness.js';

export const NETWORK = '/api/v1/link-network';
export const OPT_IN = '/api/v1/link-network/opt-in';
export const REMOVE = '/api/v1/link-network/remove-placement';
export const ACCEPT = '/api/v1/link-network/accept';

let sites = 0;

/** Words no other text shares: an article on them matches nothing (the fake writer embeds by words). */
export function uniqueWords(count: number): string {
  return randomBytes(count * 4).toString('hex').match(/.{8}/g)!.map((chunk) => `w${chunk}`).join(' ');
}

export interface Member extends TestWorkspace {
  ownerId: string;
  domain: string;
}

/** A workspace with its own site and an owner (who decides its approvals). */
export async function site(t: TestService, name: string): Promise<Member> {
  const domain = `${name.toLowerCase().replace(/[^a-z]+/g, '')}${++sites}.example`;
  const ws = await t.workspace({ name, site: `https://${domain}` });
  await t.db.updateTable('brands').set({ name }).where('workspace_id', '=', ws.workspaceId).execute();
  const ownerId = await t.user(ws.workspaceId, `owner-${ws.workspaceId}@${domain}`, 'owner');
  return { ...ws, ownerId, domain };
}

export async function ok(t: TestService, key: string, method: 'GET' | 'POST', path: string, input: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const answer = await t.rest(key, method, path, input);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Record<string, unknown>;
}

export async function join(t: TestService, ws: TestWorkspace, linkAttribute?: LinkAttribute): Promise<Record<string, unknown>> {
  return ok(t, ws.key, 'POST', OPT_IN, { member: true, confirm: true, ...(linkAttribute ? { linkAttribute } : {}) });
}

export interface NetworkView {
  credits: { balance: number; granted: number; earned: number; spent: number; history: Array<Record<string, unknown>> };
  membership: Record<string, unknown>;
  given: Array<Record<string, unknown> & { placementId: string; state: string; approvalUrl: string | null }>;
  received: Array<Record<string, unknown> & { placementId: string; state: string; approvalUrl: string | null }>;
}

export async function view(t: TestService, ws: TestWorkspace): Promise<NetworkView> {
  return (await ok(t, ws.key, 'GET', NETWORK)) as unknown as NetworkView;
}

/** A published article with a live URL, its text made of `words` (the fake writer embeds by words). */
export async function liveArticle(t: TestService, ws: TestWorkspace, title: string, words: string, options: { language?: string; url?: string } = {}): Promise<string> {
  const id = await insertPlannedArticle(t.db, t.clock, { workspaceId: ws.workspaceId, keyword: title.toLowerCase(), title, scheduledAt: t.clock.now(), language: options.language ?? 'en' });
  await t.db
    .updateTable('articles')
    .set({
      status: 'published',
      markdown: `# ${title}\n\n${words}`,
      keywords: JSON.stringify([]),
      word_count: words.split(' ').length,
      written_at: t.clock.now(),
      published_at: t.clock.now(),
      url: options.url ?? `https://${ws.workspaceId}.example/blog/${id}`,
    })
    .where('id', '=', id)
    .execute();
  return id;
}

/** A page of the workspace's site as a link target. */
export async function sitePage(t: TestService, ws: Member, path: string, title: string, keywords: string[]): Promise<string> {
  const id = newId('sp');
  await t.db
    .insertInto('site_pages')
    .values({ id, workspace_id: ws.workspaceId, url: `https://${ws.domain}${path}`, title, keywords: JSON.stringify(keywords), source: 'manual', created_at: t.clock.now() })
    .execute();
  return id;
}

/** A placement written directly (for the rules and the contract fixtures), with pending approvals on both sides when proposed. */
export async function insertPlacement(
  t: TestService,
  host: TestWorkspace,
  target: TestWorkspace,
  options: { state?: PlacementState; hostArticleId?: string; targetUrl?: string; rel?: LinkAttribute } = {},
): Promise<string> {
  const id = newId('npl');
  const state = options.state ?? 'proposed';
  const hostArticleId = options.hostArticleId ?? (await liveArticle(t, host, uniqueWords(1), uniqueWords(8)));
  const approval = async (ws: TestWorkspace) =>
    state === 'proposed'
      ? (await requestApproval(t.db, t.clock, { workspaceId: ws.workspaceId, operationId: 'accept_link_placement', input: { placementId: id }, summary: 'Accept?', requestedBy: { apiKeyId: null, userId: null } })).approvalId
      : null;
  await t.db
    .insertInto('network_placements')
    .values({
      id,
      host_workspace_id: host.workspaceId,
      host_article_id: hostArticleId,
      host_url: `https://${host.workspaceId}.example/blog/${hostArticleId}`,
      target_workspace_id: target.workspaceId,
      target_kind: 'page',
      target_subject_id: 'sp_x',
      target_url: options.targetUrl ?? `https://${target.workspaceId}.example/page-${id}`,
      target_title: 'A target page',
      anchor_text: 'Target Co',
      anchor_kind: 'brand',
      rel: options.rel ?? 'sponsored',
      similarity: 0.9,
      language: 'en',
      state,
      host_approval_id: await approval(host),
      target_approval_id: await approval(target),
      host_approved_at: null,
      target_approved_at: null,
      proposed_at: t.clock.now(),
      live_at: state === 'live' ? t.clock.now() : null,
      ended_at: state === 'retired' || state === 'declined' ? t.clock.now() : null,
      end_reason: null,
    })
    .execute();
  return id;
}

/** Joins both workspaces to the network without running a matching job (for placements written directly). */
export async function members(t: TestService, ...workspaces: TestWorkspace[]): Promise<void> {
  for (const ws of workspaces) {
    await t.db
      .insertInto('network_members')
      .values({ workspace_id: ws.workspaceId, member: 1, link_attribute: 'sponsored', first_joined_at: t.clock.now(), joined_at: t.clock.now(), left_at: null, last_match_at: null, last_match_note: null })
      .onConflict((oc) => oc.column('workspace_id').doNothing())
      .execute();
    await t.db
      .insertInto('network_credits')
      .values({ id: newId('ncr'), workspace_id: ws.workspaceId, amount: 3, reason: 'joined', placement_id: null, created_at: t.clock.now() })
      .execute();
  }
}

export function placement(t: TestService, id: string) {
  return t.db.selectFrom('network_placements').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Both owners approve, through the pipeline as the dashboard does. */
export async function approveBoth(t: TestService, host: Member, target: Member, placementId: string): Promise<void> {
  const row = await placement(t, placementId);
  await t.service.pipeline.decideApproval({ workspaceId: host.workspaceId, approvalId: row.host_approval_id!, userId: host.ownerId, choice: 'approve' });
  await t.service.pipeline.decideApproval({ workspaceId: target.workspaceId, approvalId: row.target_approval_id!, userId: target.ownerId, choice: 'approve' });
}
