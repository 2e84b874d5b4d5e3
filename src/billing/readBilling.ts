import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { PLANS } from '../plans.js';
import { toIso } from '../shared/time.js';
import { articlesInMonth, monthKey } from '../content/calendar.js';
import { queryUsage } from '../content/queries.js';
import { loadTeamWorkspace, seatUsage } from '../team/seats.js';
import { competitorUsage } from '../visibility/competitors/competitors.js';
import { writerUsageByWeek } from './writerLedger.js';

const RECENT_PAYMENTS = 10;

/**
 * The read-only billing record the operator maintains. Usage lists only what existing tables can count;
 * other limits are reported under `limits` until their features store something to count.
 */
export async function readBilling(db: Kysely<Database>, workspaceId: string, now: number) {
  const workspace = await loadTeamWorkspace(db, workspaceId);
  const [account, addOns, payments, seats, articles, trackedQueries, competitors, writerTokens] = await Promise.all([
    db.selectFrom('billing_accounts').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow(),
    db.selectFrom('billing_addons').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute(),
    db
      .selectFrom('billing_payments')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('paid_at', 'desc')
      .orderBy('id', 'desc')
      .limit(RECENT_PAYMENTS)
      .execute(),
    seatUsage(db, workspaceId, workspace.plan, now),
    articlesInMonth(db, workspaceId, now),
    queryUsage(db, workspaceId),
    competitorUsage(db, workspaceId),
    writerUsageByWeek(db, workspaceId, now),
  ]);
  const { currency } = account;
  return {
    plan: workspace.plan,
    status: account.status,
    cycle: account.cycle,
    currency,
    // The stored trial end stays when a trial converts; shown only while it still means something.
    trialEndsAt: account.status === 'trial' ? toIso(account.trial_ends_at) : null,
    nextCharge:
      account.next_charge_at === null || account.next_charge_cents === null
        ? null
        : { at: new Date(account.next_charge_at).toISOString(), amountCents: account.next_charge_cents, currency },
    addOns: addOns.map((a) => ({
      addOnId: a.id,
      name: a.name,
      quantity: a.quantity,
      unitPriceCents: a.unit_price_cents,
      totalCents: a.quantity * a.unit_price_cents,
      currency,
      addedAt: new Date(a.created_at).toISOString(),
    })),
    recentPayments: payments.map((p) => ({
      paymentId: p.id,
      amountCents: p.amount_cents,
      currency: p.currency,
      status: p.status,
      description: p.description,
      paidAt: new Date(p.paid_at).toISOString(),
    })),
    usage: {
      seats: { used: seats.used, limit: seats.limit },
      // Articles scheduled in the current UTC month, as the content calendar counts them against the allowance.
      articles: { month: monthKey(now), used: articles, limit: PLANS[workspace.plan].articlesPerMonth },
      trackedQueries,
      // Tracked competitors against the lower of 10 and the plan's number.
      competitors,
      // Not a plan limit: what the writer model cost, so the operator can see it per workspace and week.
      writerTokens,
    },
    limits: PLANS[workspace.plan],
  };
}
