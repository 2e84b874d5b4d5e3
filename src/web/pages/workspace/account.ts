import type { RequestHandler, Response, Router } from 'express';
import type { DashboardDeps } from '../../pageContext.js';
import { dayIn, formatNumber, formatTime } from '../../format.js';
import { html } from '../../html.js';
import { dataView, operationForm, showPage } from '../../kit.js';
import { callOperation } from '../../operations.js';
import type { DashboardPage } from '../../dashboardPage.js';

interface Billing {
  plan: string;
  status: string;
  cycle: string;
  currency: string;
  trialEndsAt: string | null;
  nextCharge: { at: string; amountCents: number; currency: string } | null;
  addOns: { name: string; quantity: number; totalCents: number; currency: string; addedAt: string }[];
  recentPayments: { amountCents: number; currency: string; status: string; description: string; paidAt: string }[];
  usage: {
    seats: { used: number; limit: number };
    articles: { month: string; used: number; limit: number };
    trackedQueries: { used: number; limit: number };
    competitors: { used: number; limit: number };
    writerTokens: { thisWeek: { calls: number; promptTokens: number; completionTokens: number } };
  };
}

const money = (cents: number, currency: string) => `${formatNumber(cents / 100, 2)} ${currency.toUpperCase()}`;

/**
 * What the data export holds: each section is one read operation's answer, as the API gives it (times in UTC ISO),
 * paged lists read to their end.
 */
const EXPORT_SECTIONS: readonly { name: string; operationId: string; input?: Record<string, unknown>; pages?: { rows: string; next: string; as: string } }[] = [
  { name: 'brand', operationId: 'get_brand' },
  { name: 'queries', operationId: 'list_queries' },
  { name: 'competitors', operationId: 'get_competitors' },
  { name: 'content', operationId: 'list_content' },
  { name: 'destinations', operationId: 'list_destinations' },
  { name: 'team', operationId: 'get_team' },
  { name: 'citations', operationId: 'list_citations', input: { limit: 200 }, pages: { rows: 'checks', next: 'nextBefore', as: 'before' } },
  { name: 'backlinks', operationId: 'list_backlinks', input: { limit: 500 }, pages: { rows: 'backlinks', next: 'nextCursor', as: 'cursor' } },
  { name: 'outreachProspects', operationId: 'list_outreach_prospects', input: { limit: 100 }, pages: { rows: 'prospects', next: 'nextPage', as: 'page' } },
];

/** One section of the export: the operation's answer, a paged list as all its rows, or why it was left out. */
async function exportSection(deps: DashboardDeps, res: Response, section: (typeof EXPORT_SECTIONS)[number]): Promise<unknown> {
  const rows: unknown[] = [];
  let input = section.input ?? {};
  for (;;) {
    const answer = await callOperation(deps, res, section.operationId, input);
    // A member may not read everything (the team needs manage:org): the file says what was left out and why.
    if (!answer.ok) return { omitted: answer.error.message };
    const pages = section.pages;
    if (pages === undefined) return answer.data;
    rows.push(...((answer.data?.[pages.rows] as unknown[] | undefined) ?? []));
    const next = answer.data?.[pages.next];
    if (next === null || next === undefined) return rows;
    input = { ...input, [pages.as]: next };
  }
}

/** Billing: the plan, its limits and the recent payments, read-only. */
function billingRoutes(router: Router, deps: DashboardDeps, stack: RequestHandler[]): void {
  router.get('/w/:ws/billing', ...stack, async (_req, res) => {
    const zone = res.locals.current!.timeZone;
    const answer = await callOperation(deps, res, 'get_billing', {});
    if (!answer.ok) {
      showPage(deps, res, 'Billing', html`<p class="notice" role="status">${answer.error.message}</p>`, { at: 'billing' });
      return;
    }
    const billing = answer.data as unknown as Billing;
    const usage = billing.usage;
    const usageRow = (what: string, used: number, limit: number) =>
      html`<tr><th scope="row">${what}</th><td class="num">${formatNumber(used, 0)}</td><td class="num">${formatNumber(limit, 0)}</td></tr>`;
    showPage(
      deps,
      res,
      'Billing',
      html`<div class="cards">
  <div class="card"><div>Plan</div><div class="figure" id="billing-plan">${billing.plan}</div></div>
  <div class="card"><div>Status</div><div class="figure">${billing.status}</div>${billing.trialEndsAt === null ? '' : html`<div class="muted">trial ends ${formatTime(billing.trialEndsAt, zone)}</div>`}</div>
  <div class="card"><div>Next charge</div><div class="figure">${billing.nextCharge === null ? '—' : money(billing.nextCharge.amountCents, billing.nextCharge.currency)}</div>${
    billing.nextCharge === null ? '' : html`<div class="muted">${formatTime(billing.nextCharge.at, zone)} · billed ${billing.cycle}</div>`
  }</div>
</div>
<h2>Usage</h2>
<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">Limit</th><th scope="col" class="num">Used</th><th scope="col" class="num">Of</th></tr></thead><tbody>
${usageRow('Seats', usage.seats.used, usage.seats.limit)}
${usageRow(`Articles in ${usage.articles.month}`, usage.articles.used, usage.articles.limit)}
${usageRow('Tracked queries', usage.trackedQueries.used, usage.trackedQueries.limit)}
${usageRow('Competitors', usage.competitors.used, usage.competitors.limit)}
</tbody></table></div>
<p>Writer model this week: ${formatNumber(usage.writerTokens.thisWeek.calls, 0)} calls, ${formatNumber(usage.writerTokens.thisWeek.promptTokens + usage.writerTokens.thisWeek.completionTokens, 0)} tokens.</p>
<h2>Add-ons</h2>
${dataView(billing.addOns.map((a) => ({ name: a.name, quantity: a.quantity, total: money(a.totalCents, a.currency) })))}
<h2>Recent payments</h2>
${
  billing.recentPayments.length === 0
    ? html`<p>None yet.</p>`
    : html`<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">Paid</th><th scope="col">Description</th><th scope="col" class="num">Amount</th><th scope="col">Status</th></tr></thead><tbody>${billing.recentPayments.map(
        (p) => html`<tr><td>${formatTime(p.paidAt, zone)}</td><td>${p.description}</td><td class="num">${money(p.amountCents, p.currency)}</td><td>${p.status}</td></tr>`,
      )}</tbody></table></div>`
}
<p class="muted">Plan and payment changes are made by the people who run this service: write to them on the Support page.</p>`,
      { at: 'billing' },
    );
  });
}

/** Support: a message to the people who run the service. */
function supportRoutes(router: Router, deps: DashboardDeps, stack: RequestHandler[]): void {
  router.get('/w/:ws/support', ...stack, (_req, res) => {
    showPage(
      deps,
      res,
      'Support',
      html`<p>Write to the people who run this service: a problem, a question or a request. Say what you tried and what happened; give an email to be answered.</p>
${operationForm(res, {
  operationId: 'send_support_message',
  fields: html`<label>Subject <input type="text" name="subject" maxlength="200"></label>
<label>Message <textarea name="message" maxlength="5000" required></textarea></label>
<label>Email for the answer <input type="email" name="contactEmail" value="${res.locals.visit!.user.email}"></label>`,
  button: 'Send',
  id: 'support',
})}`,
      { at: 'support' },
    );
  });
}

/** Data export: one JSON file of the workspace's data, read through the operations. */
function exportRoutes(router: Router, deps: DashboardDeps, stack: RequestHandler[]): void {
  router.get('/w/:ws/export', ...stack, (_req, res) => {
    const current = res.locals.current!;
    showPage(
      deps,
      res,
      'Data export',
      html`<p>One JSON file with this workspace's data, read through the same operations the API offers, as you may read them: ${EXPORT_SECTIONS.map((s) => s.name).join(', ')}. Lists are complete (every page). Times are UTC ISO times. A part your role may not read is left out with the reason.</p>
<form method="get" action="/w/${current.workspaceId}/export/download"><button type="submit">Download JSON</button></form>`,
      { at: 'export' },
    );
  });

  router.get('/w/:ws/export/download', ...stack, async (_req, res) => {
    const current = res.locals.current!;
    const exportedAt = deps.clock.now();
    const file: Record<string, unknown> = {
      workspace: { id: current.workspaceId, name: current.name, websiteUrl: current.websiteUrl, timeZone: current.timeZone },
      exportedAt: new Date(exportedAt).toISOString(),
    };
    for (const section of EXPORT_SECTIONS) file[section.name] = await exportSection(deps, res, section);
    res.attachment(`sightline-${current.workspaceId}-${dayIn(exportedAt, current.timeZone)}.json`).type('json').send(JSON.stringify(file, null, 2));
  });
}

export const WORKSPACE_BILLING: DashboardPage = {
  area: 'workspace',
  path: 'billing',
  title: 'Billing',
  routes: (router, deps, { inWorkspace }) => billingRoutes(router, deps, inWorkspace),
};

export const WORKSPACE_SUPPORT: DashboardPage = {
  area: 'workspace',
  path: 'support',
  title: 'Support',
  routes: (router, deps, { inWorkspace }) => supportRoutes(router, deps, inWorkspace),
};

export const WORKSPACE_EXPORT: DashboardPage = {
  area: 'workspace',
  path: 'export',
  title: 'Data export',
  routes: (router, deps, { inWorkspace }) => exportRoutes(router, deps, inWorkspace),
};
