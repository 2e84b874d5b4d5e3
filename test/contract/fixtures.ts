import { requestApproval } from '../../src/domain/approvals/approvals.js';
import type { TestService, TestWorkspace } from '../support/harness.js';

type Input = Record<string, unknown>;

/**
 * Per operation: a valid input (creating whatever it refers to), and for operations that name an object,
 * an input naming an object of another workspace. The contract tests refuse an operation without one,
 * so every new operation is exercised on both surfaces the moment it is declared.
 */
export interface Fixture {
  valid(t: TestService, ws: TestWorkspace): Promise<Input>;
  foreign?(t: TestService, other: TestWorkspace): Promise<Input>;
}

async function data(t: TestService, ws: TestWorkspace, path: string, body: Input): Promise<Record<string, unknown>> {
  const answer = await t.rest(ws.key, 'POST', path, body);
  if (answer.status !== 200) throw new Error(`fixture call ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.data as Record<string, unknown>;
}

const guideline = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/brand/guidelines', { type: 'tone', avoid: 'jargon', instead: 'plain words' }).then((d) => String(d.guidelineId));
const product = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/brand/product', { name: 'Widget', description: 'A widget', category: 'core_product' }).then((d) => String(d.productId));
const buyerProfile = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/brand/icp', { title: 'Ops lead', industry: 'Logistics', demographics: { seniority: 'senior' } }).then((d) => String(d.profileId));
const invite = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/team/invite', { email: `invitee-${Math.random().toString(36).slice(2)}@example.com`, confirm: true }).then((d) => String(d.inviteId));
const approval = (t: TestService, ws: TestWorkspace) =>
  requestApproval(t.db, t.clock, {
    workspaceId: ws.workspaceId,
    operationId: 'remove_competitor',
    input: { competitorId: 'cmp_x' },
    summary: 'Would stop tracking a competitor',
    requestedBy: { apiKeyId: ws.keyId, userId: null },
  }).then((a) => a.approvalId);
const member = (t: TestService, ws: TestWorkspace) => t.user(ws.workspaceId, `member-${Math.random().toString(36).slice(2)}@example.com`, 'member');

export const fixtures: Record<string, Fixture> = {
  get_brand: { valid: async () => ({}) },
  update_brand_identity: { valid: async () => ({ brandAliases: ['Acme'] }) },
  update_brand_profile: { valid: async () => ({ tone: 'friendly' }) },
  add_brand_guideline: { valid: async () => ({ type: 'style', avoid: 'passive voice', instead: 'active voice' }) },
  set_brand_guideline_active: {
    valid: async (t, ws) => ({ guidelineId: await guideline(t, ws), on: false }),
    foreign: async (t, other) => ({ guidelineId: await guideline(t, other), on: false }),
  },
  remove_brand_guideline: {
    valid: async (t, ws) => ({ guidelineId: await guideline(t, ws) }),
    foreign: async (t, other) => ({ guidelineId: await guideline(t, other) }),
  },
  write_brand_product: {
    valid: async () => ({ name: 'Gadget', description: 'A gadget', category: 'product' }),
    foreign: async (t, other) => ({ productId: await product(t, other), name: 'Renamed' }),
  },
  write_brand_icp: {
    valid: async () => ({ title: 'Founder', industry: 'SaaS', demographics: { ageRange: '30-45' } }),
    foreign: async (t, other) => ({ profileId: await buyerProfile(t, other), title: 'Renamed' }),
  },
  confirm_brand_reviewed: { valid: async () => ({}) },
  get_team: { valid: async () => ({}) },
  invite_team_member: { valid: async () => ({ email: 'new.person@example.com', role: 'member' }) },
  revoke_team_invite: {
    valid: async (t, ws) => ({ inviteId: await invite(t, ws) }),
    foreign: async (t, other) => ({ inviteId: await invite(t, other) }),
  },
  remove_team_member: {
    valid: async (t, ws) => ({ userId: await member(t, ws) }),
    foreign: async (t, other) => ({ userId: await member(t, other) }),
  },
  get_billing: { valid: async () => ({}) },
  get_approval: {
    valid: async (t, ws) => ({ approvalId: await approval(t, ws) }),
    foreign: async (t, other) => ({ approvalId: await approval(t, other) }),
  },
  send_support_message: { valid: async () => ({ message: 'The dashboard shows no data', subject: 'No data' }) },
};
