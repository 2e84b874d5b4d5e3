import { z } from 'zod';
import { readBilling } from '../../src/domain/billing/readBilling.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'get_billing',
  method: 'GET',
  path: '/api/v1/billing',
  scope: 'manage:org',
  cap: 10,
  description:
    "Read this workspace's billing: plan, status (trial, active or cancelling), cycle, next charge, add-ons, recent payments, usage and plan limits.\n" +
    'Use it to answer questions about the subscription or to check room before inviting. Read-only: plan and payment changes are made by the service operator, not through the API.\n' +
    'Returns { plan, status, cycle, currency, trialEndsAt, nextCharge: { at, amountCents, currency } | null, addOns, recentPayments (latest 10, newest first), ' +
    'usage: { seats: { used, limit }, articles: { month (YYYY-MM, UTC), used, limit }, trackedQueries: { used, limit }, competitors: { used, limit (the lower of 10 and the plan number) } }, limits: { requestsPerMinute, seats, articlesPerMonth, trackedQueries, competitors } }. Amounts are in cents; dates are ISO.',
  annotations: { title: 'Get billing', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  confirm: 'none',
  handler: (ctx) => readBilling(ctx.db, ctx.workspaceId, ctx.clock.now()),
});
