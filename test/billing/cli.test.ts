import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { readBilling } from '../../src/billing/readBilling.js';
import { runEntry } from '../support/processes.js';

// The CLI is its own process with its own database, so this runs on a SQLite file whatever TEST_DATABASE_URL says.
const dir = mkdtempSync(join(tmpdir(), 'sightline-billing-cli-'));
const file = join(dir, 'sightline.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const admin = (...args: string[]) => runEntry('src/cli/main.ts', ['admin', ...args], { DATABASE_URL: file });

async function adminJson(...args: string[]): Promise<Record<string, unknown>> {
  const result = await admin(...args, '--json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe('cli: admin billing', () => {
  it('set, add-payment and add-addon write the record get_billing reads; operator mistakes exit with 2', { timeout: 60_000 }, async () => {
    const { workspaceId } = await adminJson('create-workspace', '--name', 'Acme', '--site', 'https://acme.example');
    const ws = String(workspaceId);
    const set = await adminJson('billing', 'set', '--workspace', ws, '--status', 'active', '--next-charge-at', '2026-12-21', '--next-charge-cents', '4900', '--currency', 'eur');
    expect(set).toEqual({ workspaceId, status: 'active', cycle: 'monthly', currency: 'EUR', nextChargeAt: '2026-12-21T00:00:00.000Z', nextChargeCents: 4900 });
    const { paymentId } = await adminJson('billing', 'add-payment', '--workspace', ws, '--amount-cents', '4900', '--paid-at', '2026-11-21T10:00:00Z', '--description', 'November');
    const { addOnId } = await adminJson('billing', 'add-addon', '--workspace', ws, '--name', 'Extra seats', '--unit-price-cents', '900', '--quantity', '2');
    expect(await admin('billing', 'add-payment', '--workspace', 'ws_nope', '--amount-cents', '1')).toMatchObject({
      code: 2,
      stderr: 'error: workspace ws_nope does not exist\n',
    });

    const handle = openDatabase(file);
    try {
      expect(await readBilling(handle.db, ws, Date.parse('2026-11-22T00:00:00Z'))).toMatchObject({
        status: 'active',
        currency: 'EUR',
        nextCharge: { at: '2026-12-21T00:00:00.000Z', amountCents: 4900, currency: 'EUR' },
        addOns: [{ addOnId, name: 'Extra seats', quantity: 2, unitPriceCents: 900, totalCents: 1800 }],
        recentPayments: [{ paymentId, amountCents: 4900, currency: 'EUR', status: 'paid', description: 'November', paidAt: '2026-11-21T10:00:00.000Z' }],
      });
    } finally {
      await handle.close();
    }
  });
});
