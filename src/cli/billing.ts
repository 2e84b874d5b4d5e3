import { InvalidArgumentError, type Command } from 'commander';
import { systemClock } from '../clock.js';
import {
  addBillingAddon,
  addBillingPayment,
  BILLING_CYCLES,
  BILLING_STATUSES,
  PAYMENT_STATUSES,
  updateBillingAccount,
  type BillingAccountChanges,
  type BillingCycle,
  type BillingStatus,
  type PaymentStatus,
} from '../billing/maintenance.js';
import { OperatorError } from '../operator.js';
import { report, withDatabase } from './common.js';

function oneOf<T extends string>(values: readonly T[]): (value: string) => T {
  return (value) => {
    const match = values.find((v) => v === value);
    if (match === undefined) throw new InvalidArgumentError(`must be one of ${values.join(', ')}`);
    return match;
  };
}

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('must be a whole number (cents for amounts)');
  return n;
}

function positiveWholeNumber(value: string): number {
  const n = wholeNumber(value);
  if (n < 1) throw new InvalidArgumentError('must be at least 1');
  return n;
}

/** Epoch ms; a date without a zone would be read in the operator's local zone, so an ISO date is asked for. */
function isoDate(value: string): number {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) throw new InvalidArgumentError('must be an ISO date such as 2026-12-01 or 2026-12-01T09:00:00Z');
  return ms;
}

function currency(value: string): string {
  const code = value.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw new InvalidArgumentError('must be a three-letter ISO 4217 code such as USD or EUR');
  return code;
}

function money(cents: number, code: string): string {
  return `${(cents / 100).toFixed(2)} ${code}`;
}

/** `admin billing …`: the operator keeps the read-only billing record that get_billing shows (no payment provider yet). */
export function registerBillingCommands(admin: Command): void {
  const billing = admin.command('billing').description("maintain a workspace's read-only billing record");

  billing
    .command('set')
    .description('change the billing account: status, cycle, currency, next charge')
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--status <status>', BILLING_STATUSES.join(', '), oneOf(BILLING_STATUSES))
    .option('--cycle <cycle>', BILLING_CYCLES.join(', '), oneOf(BILLING_CYCLES))
    .option('--next-charge-at <date>', 'ISO date of the next charge', isoDate)
    .option('--next-charge-cents <n>', 'amount of the next charge in cents', wholeNumber)
    .option('--clear-next-charge', 'no next charge (for example once cancelling)')
    .option('--currency <code>', 'three-letter currency code', currency)
    .option('--json', 'print one JSON object')
    .action(
      async (options: {
        workspace: string;
        status?: BillingStatus;
        cycle?: BillingCycle;
        nextChargeAt?: number;
        nextChargeCents?: number;
        clearNextCharge?: boolean;
        currency?: string;
        json?: boolean;
      }) => {
        const changes: BillingAccountChanges = { status: options.status, cycle: options.cycle, currency: options.currency };
        if (options.clearNextCharge) {
          if (options.nextChargeAt !== undefined || options.nextChargeCents !== undefined) {
            throw new OperatorError('--clear-next-charge cannot be combined with --next-charge-at or --next-charge-cents');
          }
          changes.nextChargeAt = null;
          changes.nextChargeCents = null;
        } else {
          changes.nextChargeAt = options.nextChargeAt;
          changes.nextChargeCents = options.nextChargeCents;
        }
        if (Object.values(changes).every((value) => value === undefined)) {
          throw new OperatorError('nothing to change: give at least one of --status, --cycle, --currency, --next-charge-at, --next-charge-cents, --clear-next-charge');
        }
        const account = await withDatabase(({ db }) => updateBillingAccount(db, systemClock, options.workspace, changes));
        const next = account.nextChargeAt === null || account.nextChargeCents === null ? 'none' : `${money(account.nextChargeCents, account.currency)} on ${account.nextChargeAt}`;
        report(options.json, account, `billing of ${account.workspaceId}: ${account.status}, ${account.cycle}, ${account.currency}; next charge ${next}`);
      },
    );

  billing
    .command('add-payment')
    .description('record a payment; get_billing lists the latest 10')
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--amount-cents <n>', 'amount in cents', wholeNumber)
    .option('--currency <code>', "three-letter currency code (default: the account's)", currency)
    .option('--status <status>', PAYMENT_STATUSES.join(', '), oneOf(PAYMENT_STATUSES), 'paid')
    .option('--description <text>', 'what the payment was for (default: "<cycle> subscription")')
    .option('--paid-at <date>', 'ISO date of the payment (default: now)', isoDate)
    .option('--json', 'print one JSON object')
    .action(
      async (options: { workspace: string; amountCents: number; currency?: string; status: PaymentStatus; description?: string; paidAt?: number; json?: boolean }) => {
        const { paymentId } = await withDatabase(({ db }) =>
          addBillingPayment(db, systemClock, options.workspace, {
            amountCents: options.amountCents,
            status: options.status,
            currency: options.currency,
            description: options.description,
            paidAt: options.paidAt,
          }),
        );
        report(options.json, { paymentId }, `recorded payment ${paymentId} (${options.status})`);
      },
    );

  billing
    .command('add-addon')
    .description('record an add-on on the subscription')
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--name <name>', 'add-on name as the customer knows it')
    .requiredOption('--unit-price-cents <n>', 'price per unit and billing cycle, in cents', wholeNumber)
    .option('--quantity <n>', 'number of units', positiveWholeNumber, 1)
    .option('--json', 'print one JSON object')
    .action(async (options: { workspace: string; name: string; unitPriceCents: number; quantity: number; json?: boolean }) => {
      const { addOnId } = await withDatabase(({ db }) =>
        addBillingAddon(db, systemClock, options.workspace, { name: options.name, quantity: options.quantity, unitPriceCents: options.unitPriceCents }),
      );
      report(options.json, { addOnId }, `added add-on ${addOnId}: ${options.quantity} × ${options.name}`);
    });
}
