import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestApproval } from '../../src/approvals/approvals.js';
import { seedGrant } from '../support/grants.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { insertProspect } from '../outreach/support.js';
import { writtenArticle } from '../publishing/support.js';
import { snapshot } from '../support/snapshot.js';
import type { Visitor } from '../support/visitor.js';
import { concretePaths, dashboardRoutes, type DeclaredRoute } from './routes.js';

// REST and MCP: test/contract/surfaces.test.ts calls every operation that takes an id with another workspace's id
// and a missing one. This file does the same for the dashboard's own pages and forms.

let t: TestService;
let mine: TestWorkspace & { visitor: Visitor };
let csrf: string;
/** Ids of the other workspace's objects, by the name of the route parameter that carries them. */
let theirs: Record<string, string>;
let routes: DeclaredRoute[];

beforeAll(async () => {
  t = await TestService.start({ writer: false });
  mine = await t.signedInOwner();
  csrf = await mine.visitor.csrf(`/w/${mine.workspaceId}`);
  const other = await t.workspace({ name: 'Other Co', site: 'https://other.example' });
  const theirOwner = await t.user(other.workspaceId, `owner-${other.workspaceId}@other.example`, 'owner');
  const theirMember = await t.user(other.workspaceId, `member-${other.workspaceId}@other.example`, 'member');
  const { approvalId } = await requestApproval(t.db, t.clock, {
    workspaceId: other.workspaceId,
    operationId: 'remove_competitor',
    input: { competitorId: 'cmp_theirs' },
    summary: 'Remove a competitor',
    requestedBy: { apiKeyId: other.keyId, userId: null },
  });
  theirs = {
    ws: other.workspaceId,
    contentId: await writtenArticle(t, other),
    id: approvalId,
    keyId: other.keyId,
    grantId: (await seedGrant(t, { workspaceId: other.workspaceId, userId: theirOwner, clientName: 'Their app' })).grantId,
    userId: theirMember,
    prospect: await insertProspect(t.db, t.clock, other.workspaceId),
  };
  routes = dashboardRoutes(t.service.app);
});
afterAll(() => t.close());

const MISSING = 'missing_0000';

/**
 * The parameters of a route that name an object of a workspace: not the workspace itself, not the operation of the
 * action route, and not an invite's token (a link meant for someone outside the workspace).
 */
function objectParameters(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map(([, name]) => name!).filter((name) => !['ws', 'operationId', 'token'].includes(name));
}

/** Everything the visits must leave as they were; sessions aside, since reading one may record that it was used. */
const data = () => snapshot(t.db, ['sessions']);

/** Status and page of a dashboard request by my browser: a form (with my token, and the approval form's choice) for anything but GET. */
async function visit(method: string, path: string): Promise<{ status: number; page: string }> {
  const answer = await mine.visitor.request(path, method === 'GET' ? {} : { method, form: { _csrf: csrf, decision: 'approve' } });
  return { status: answer.status, page: await answer.text() };
}

/** Where the answers for their object and for a missing one differ: nothing, when theirs reads as missing. */
async function difference(method: string, theirPath: string, missingPath: string, theirId: string): Promise<string | undefined> {
  const foreign = await visit(method, theirPath);
  const missing = await visit(method, missingPath);
  if (foreign.status !== 404) return `${method} ${theirPath} answered ${foreign.status}, not 404`;
  if (missing.status !== 404) return `${method} ${missingPath} answered ${missing.status}, not 404`;
  if (foreign.page !== missing.page.replaceAll(MISSING, theirId)) return `${method} ${theirPath} answered another page than for a missing id`;
  return undefined;
}

describe("another workspace's ids on the dashboard", () => {
  it("every page and form of another workspace answers 404, exactly as for a workspace that does not exist, and changes nothing", async () => {
    const inWorkspace = routes.filter((route) => route.path.startsWith('/w/:ws'));
    expect(inWorkspace.length).toBeGreaterThan(60);
    const before = await data();
    const problems: string[] = [];
    for (const route of inWorkspace) {
      const [theirPath] = concretePaths(route, { ...theirs, operationId: 'remove_competitor' });
      const [missingPath] = concretePaths(route, { ...theirs, ws: MISSING, operationId: 'remove_competitor' });
      const problem = await difference(route.method, theirPath!, missingPath!, theirs.ws!);
      if (problem !== undefined) problems.push(problem);
    }
    expect(problems).toEqual([]);
    expect(await data()).toEqual(before);
  });

  it("another workspace's object named in my own workspace's addresses answers 404, exactly as a missing one, and changes nothing", async () => {
    const withIds = routes.filter((route) => objectParameters(route.path).length > 0);
    const unnamed = withIds.flatMap((route) => objectParameters(route.path)).filter((name) => theirs[name] === undefined);
    expect(unnamed, 'route parameters with no object of the other workspace in this test: add one to `theirs`').toEqual([]);
    const addresses = [
      ...withIds.map((route) => ({ method: route.method, path: route.path, id: objectParameters(route.path)[0]! })),
      // Ids the pages take from the query string.
      { method: 'GET', path: '/w/:ws/growth/outreach/thread?prospect=:prospect', id: 'prospect' },
    ];
    expect(addresses.length).toBeGreaterThanOrEqual(8);
    const before = await data();
    const problems: string[] = [];
    for (const { method, path, id } of addresses) {
      const at = (value: string) => concretePaths({ method, path }, { ws: mine.workspaceId, [id]: value })[0]!;
      const problem = await difference(method, at(theirs[id]!), at(MISSING), theirs[id]!);
      if (problem !== undefined) problems.push(problem);
    }
    expect(problems).toEqual([]);
    expect(await data()).toEqual(before);
  });
});
