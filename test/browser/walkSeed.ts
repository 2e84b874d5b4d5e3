import { expect } from 'vitest';
import { siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { collect } from '../analytics/support.js';
import { backlinkRow } from '../backlinks/support.js';
import { commit, markWritten } from '../content/calendarSupport.js';
import { insertProspect } from '../outreach/support.js';
import { destinationAt, publish } from '../publishing/support.js';
import type { Receiver } from '../publishing/receiver.js';
import { insertRepurposeDraft } from '../repurpose/support.js';
import { insertThread } from '../social/support.js';
import { authorizationCodeTokens } from '../support/oauthFlow.js';
import { PASSWORD, START_TIME, type TestService, type TestWorkspace } from '../support/harness.js';
import { Visitor } from '../support/visitor.js';
import { Seeder } from '../visibility/metrics/seed.js';

const DAY = 86_400_000;

export interface SeededWorkspace {
  ws: TestWorkspace;
  ownerEmail: string;
  memberEmail: string;
}

async function ok(t: TestService, ws: TestWorkspace, method: 'GET' | 'POST', path: string, input?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await t.rest(ws.key, method, path, input);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body.data as Record<string, unknown>;
}

/** A week of checks on two engines: answers citing and mentioning the brand and a competitor, with sentiment, and rank checks. */
async function seedVisibility(t: TestService, ws: TestWorkspace): Promise<void> {
  const seeder = new Seeder(t, ws);
  const queries = [await seeder.query('best crm for dentists'), await seeder.query('dental practice software')];
  await seeder.competitor('Rival', 'https://rival.example');
  for (let day = 6; day >= 1; day--) {
    const at = new Date(START_TIME - day * DAY).toISOString();
    for (const queryId of queries) {
      await seeder.answer(at, 'chatgpt', queryId, 'Acme Analytics and Rival are the usual picks.', ['https://acme.example/guide', 'https://rival.example/', 'https://review.example/crm'], { brand: { label: 'positive', score: 80 } });
      await seeder.answer(at, 'perplexity', queryId, 'Rival is popular; Acme Analytics is newer.', ['https://rival.example/pricing']);
      await seeder.rank(at, queryId, 'google', ['https://rival.example/', 'https://acme.example/guide'], { shown: true, references: ['https://acme.example/guide'] });
    }
    seeder.nextRun();
  }
  t.clock.set(START_TIME);
}

/** Planned titles, a written draft and a published article, delivered to a destination on `receiver`. */
async function seedContentAndPublishing(t: TestService, ws: TestWorkspace, receiver: Receiver): Promise<void> {
  const { planned } = await commit(t, ws, 3, 'Walk article');
  const [published, draft] = planned;
  await markWritten(t, draft!.contentId);
  await markWritten(t, published!.contentId);
  await destinationAt(t, ws, receiver, '/walk-feed', { siteUrl: receiver.origin, name: 'Walk blog' });
  await publish(t, ws, published!.contentId);
  await t.jobs.drain();
}

async function seedBrand(t: TestService, ws: TestWorkspace): Promise<void> {
  await ok(t, ws, 'POST', '/api/v1/brand/guidelines', { type: 'tone', avoid: 'revolutionary', instead: 'say what it does' });
  await ok(t, ws, 'POST', '/api/v1/brand/icp', {
    title: 'Practice manager at a dental clinic',
    industry: 'Dentistry',
    companySize: '5-50 employees',
    painPoints: ['Missed appointments'],
    buyingTriggers: ['A second clinic opens'],
    objections: ['Switching costs'],
    preferredChannels: ['Newsletters'],
    demographics: { ageRange: '30-50', seniority: 'Manager', department: 'Operations' },
  });
  await ok(t, ws, 'POST', '/api/v1/brand/product', {
    name: 'Acme Dashboards',
    description: 'Self-serve dashboards for clinics.',
    url: 'https://acme.example/dashboards',
    features: ['Appointment reminders'],
    pricing: 'from $49 a month',
    category: 'core_product',
    usps: ['Set up in five minutes'],
  });
}

async function seedGrowth(t: TestService, ws: TestWorkspace): Promise<void> {
  await t.db
    .insertInto('backlinks')
    .values(
      backlinkRow(START_TIME - 3 * DAY, {
        workspace_id: ws.workspaceId,
        linking_url: 'https://review.example/crm-roundup',
        domain_authority: 42,
        authority_metric: 'rank',
        status: 'verified',
        last_verified_at: START_TIME - DAY,
      }),
    )
    .execute();
  await insertProspect(t.db, t.clock, ws.workspaceId);
  await insertThread(t.db, t.clock, ws.workspaceId);
  await insertRepurposeDraft(t, ws.workspaceId);
}

/** Page views and an engagement through the counter's collect endpoint, as the tracking tag sends them. */
async function seedCounter(t: TestService, ws: TestWorkspace): Promise<void> {
  const site = await siteIdOf(t.db, ws.workspaceId);
  const sent = [
    await collect(t.baseUrl, { s: site, t: 'pageview', u: 'https://acme.example/blog/guide', r: 'https://chatgpt.com/' }, { ip: '198.51.100.1' }),
    await collect(t.baseUrl, { s: site, t: 'pageview', u: 'https://acme.example/pricing', r: 'https://acme.example/blog/guide' }, { ip: '198.51.100.1' }),
    await collect(t.baseUrl, { s: site, t: 'pageview', u: 'https://acme.example/' }, { ip: '198.51.100.2' }),
    await collect(t.baseUrl, { s: site, t: 'engagement', u: 'https://acme.example/', e: 8000, v: 1 }, { ip: '198.51.100.2' }),
  ];
  expect(sent.map((answer) => answer.status)).toEqual([204, 204, 204, 204]);
  await t.service.counterIngest.flush();
}

/**
 * One workspace with data on every area of the dashboard, an owner and a member who sign in with PASSWORD (test/support/harness.ts), a pending
 * invite and an OAuth grant. The service must allow private addresses (the destination is `receiver`) and trust
 * the loopback proxy (the counter reads the visitors' addresses from X-Forwarded-For).
 */
export async function seedEveryArea(t: TestService, receiver: Receiver): Promise<SeededWorkspace> {
  const ws = await t.workspace();
  // Long and without a hyphen on purpose: the header shows the address, and at phone width it must wrap, not widen the page.
  const ownerEmail = `owner_${ws.workspaceId}_${ws.workspaceId}@acme.example`;
  const memberEmail = `member_${ws.workspaceId}_${ws.workspaceId}@acme.example`;
  await t.user(ws.workspaceId, ownerEmail, 'owner');
  await t.user(ws.workspaceId, memberEmail, 'member');
  await seedVisibility(t, ws);
  await seedContentAndPublishing(t, ws, receiver);
  await seedBrand(t, ws);
  await seedGrowth(t, ws);
  await seedCounter(t, ws);
  await ok(t, ws, 'POST', '/api/v1/team/invite', { email: 'newcomer@acme.example', confirm: true });
  const owner = new Visitor(t.baseUrl);
  await owner.signIn(ownerEmail, PASSWORD);
  await authorizationCodeTokens(t.baseUrl, owner, ws.workspaceId, ['read:content', 'read:analytics']);
  return { ws, ownerEmail, memberEmail };
}
