import { z } from 'zod';
import { BILLING_CYCLES, BILLING_STATUSES, PAYMENT_STATUSES } from '../../src/billing/maintenance.js';
import { readBilling } from '../../src/billing/readBilling.js';
import { PLAN_NAMES } from '../../src/plans.js';
import { WRITER_PURPOSES } from '../../src/writer/model.js';
import { defineTool } from '../define.js';
import { isoTime, planLimits } from '../fields.js';

const usage = z.object({ used: z.int(), limit: z.int() });
const tokens = { calls: z.int(), promptTokens: z.int(), completionTokens: z.int() };
const writerWeek = z.object({
  from: z.string().describe('YYYY-MM-DD: the Monday (UTC) the week starts.'),
  ...tokens,
  byPurpose: z.array(z.object({ purpose: z.enum(WRITER_PURPOSES), model: z.string(), ...tokens })),
});

export default defineTool({
  operationId: 'get_billing',
  method: 'GET',
  path: '/api/v1/billing',
  scope: 'manage:org',
  cap: 10,
  description:
    "Read this workspace's billing: plan, status, cycle, next charge, add-ons, recent payments, usage and plan limits. " +
    'Use it for subscription questions or to check room before inviting. Plan and payment changes are made by the service operator, not through the API.',
  annotations: { title: 'Get billing', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    plan: z.enum(PLAN_NAMES),
    status: z.enum(BILLING_STATUSES),
    cycle: z.enum(BILLING_CYCLES),
    currency: z.string(),
    trialEndsAt: isoTime().nullable().describe('Set only while the status is trial.'),
    nextCharge: z.object({ at: isoTime(), amountCents: z.int(), currency: z.string() }).nullable(),
    addOns: z.array(
      z.object({
        addOnId: z.string(),
        name: z.string(),
        quantity: z.int(),
        unitPriceCents: z.int(),
        totalCents: z.int(),
        currency: z.string(),
        addedAt: isoTime(),
      }),
    ),
    recentPayments: z.array(
      z.object({
        paymentId: z.string(),
        amountCents: z.int(),
        currency: z.string(),
        status: z.enum(PAYMENT_STATUSES),
        description: z.string(),
        paidAt: isoTime(),
      }),
    ),
    usage: z.object({
      seats: usage,
      articles: z.object({ month: z.string().describe('YYYY-MM, UTC.'), used: z.int(), limit: z.int() }),
      trackedQueries: usage,
      competitors: usage,
      writerTokens: z.object({ thisWeek: writerWeek, lastWeek: writerWeek }).describe('Writer-model calls and tokens, failed calls included.'),
    }),
    limits: planLimits,
  }),
  confirm: 'none',
  handler: (ctx) => readBilling(ctx.db, ctx.workspaceId, ctx.clock.now()),
});
