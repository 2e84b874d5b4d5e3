/**
 * Operator upkeep of the read-only billing record: there is no payment provider yet, so the operator
 * writes what get_billing shows. Inputs arrive typed and well-formed (the CLI parses them); these
 * functions check what only the stored record can tell.
 */
import type { Kysely } from 'kysely';
import type { BillingAccountsTable, BillingPaymentsTable, Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { OperatorError } from '../operator.js';

export type BillingStatus = BillingAccountsTable['status'];
export type BillingCycle = BillingAccountsTable['cycle'];
export type PaymentStatus = BillingPaymentsTable['status'];

export const BILLING_STATUSES = ['trial', 'active', 'cancelling'] as const satisfies readonly BillingStatus[];
export const BILLING_CYCLES = ['monthly', 'yearly'] as const satisfies readonly BillingCycle[];
export const PAYMENT_STATUSES = ['paid', 'failed', 'refunded'] as const satisfies readonly PaymentStatus[];

/** Every workspace gets its billing account at creation, so a missing one means a wrong workspace id. */
async function loadAccount(db: Kysely<Database>, workspaceId: string) {
  const account = await db.selectFrom('billing_accounts').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (account === undefined) throw new OperatorError(`workspace ${workspaceId} does not exist`);
  return account;
}

export interface BillingAccountChanges {
  status?: BillingStatus;
  cycle?: BillingCycle;
  currency?: string;
  /** null clears the next charge. */
  nextChargeAt?: number | null;
  nextChargeCents?: number | null;
}

export async function updateBillingAccount(db: Kysely<Database>, clock: Clock, workspaceId: string, changes: BillingAccountChanges) {
  const account = await loadAccount(db, workspaceId);
  const next = {
    status: changes.status ?? account.status,
    cycle: changes.cycle ?? account.cycle,
    currency: changes.currency ?? account.currency,
    next_charge_at: changes.nextChargeAt === undefined ? account.next_charge_at : changes.nextChargeAt,
    next_charge_cents: changes.nextChargeCents === undefined ? account.next_charge_cents : changes.nextChargeCents,
  };
  // get_billing shows a next charge only with both parts, so a half-set one would silently vanish.
  if ((next.next_charge_at === null) !== (next.next_charge_cents === null)) {
    throw new OperatorError('the next charge needs both a date and an amount: give --next-charge-at and --next-charge-cents together');
  }
  await db
    .updateTable('billing_accounts')
    .set({ ...next, updated_at: clock.now() })
    .where('workspace_id', '=', workspaceId)
    .execute();
  return {
    workspaceId,
    status: next.status,
    cycle: next.cycle,
    currency: next.currency,
    nextChargeAt: next.next_charge_at === null ? null : new Date(next.next_charge_at).toISOString(),
    nextChargeCents: next.next_charge_cents,
  };
}

export interface NewPayment {
  amountCents: number;
  status: PaymentStatus;
  /** Defaults to the account's currency. */
  currency?: string;
  /** Defaults to `<cycle> subscription`. */
  description?: string;
  /** Defaults to now. */
  paidAt?: number;
}

export async function addBillingPayment(db: Kysely<Database>, clock: Clock, workspaceId: string, payment: NewPayment): Promise<{ paymentId: string }> {
  const account = await loadAccount(db, workspaceId);
  const paymentId = newId('pay');
  await db
    .insertInto('billing_payments')
    .values({
      id: paymentId,
      workspace_id: workspaceId,
      amount_cents: payment.amountCents,
      currency: payment.currency ?? account.currency,
      status: payment.status,
      description: payment.description ?? `${account.cycle} subscription`,
      paid_at: payment.paidAt ?? clock.now(),
    })
    .execute();
  return { paymentId };
}

export interface NewAddOn {
  name: string;
  quantity: number;
  unitPriceCents: number;
}

export async function addBillingAddon(db: Kysely<Database>, clock: Clock, workspaceId: string, addOn: NewAddOn): Promise<{ addOnId: string }> {
  await loadAccount(db, workspaceId);
  const addOnId = newId('addon');
  await db
    .insertInto('billing_addons')
    .values({ id: addOnId, workspace_id: workspaceId, name: addOn.name, quantity: addOn.quantity, unit_price_cents: addOn.unitPriceCents, created_at: clock.now() })
    .execute();
  return { addOnId };
}
