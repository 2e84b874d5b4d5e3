import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../src/exports/artifacts.js';
import { registry } from '../../tools/index.js';
import { readdirSync } from 'node:fs';

const CATALOGUE = `${ROOT}../shared/spec/operations.md`;

interface CatalogueRow {
  method: string;
  path: string;
  scope: string;
  cap: string;
}

/** The rows of the specification's operation catalogue, keyed by operationId. */
function readCatalogue(): Map<string, CatalogueRow> {
  const rows = new Map<string, CatalogueRow>();
  for (const line of readFileSync(CATALOGUE, 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim().replace(/`/g, ''));
    if (cells.length < 7 || !/^[a-z_]+$/.test(cells[1] ?? '')) continue;
    rows.set(cells[1]!, { method: cells[2]!, path: cells[3]!, scope: cells[4]!, cap: cells[5]! });
  }
  return rows;
}

/**
 * Operations this service adds beyond the catalogue's 91 (operations.md allows additions with the same conventions);
 * names, paths, scopes and caps as issue 4 fixed them. The operations table (docs/guide/operations.md) lists them too.
 */
const EXTENSIONS = new Map<string, CatalogueRow>([
  ['list_destinations', { method: 'GET', path: '/api/v1/destinations', scope: 'read:content', cap: '10' }],
  ['create_destination', { method: 'POST', path: '/api/v1/destinations', scope: 'manage:org', cap: '10' }],
  ['activate_destination', { method: 'POST', path: '/api/v1/destinations/activate', scope: 'manage:org', cap: '10' }],
  ['send_test_event', { method: 'POST', path: '/api/v1/destinations/test', scope: 'manage:org', cap: '10' }],
  ['remove_destination', { method: 'POST', path: '/api/v1/destinations/remove', scope: 'manage:org', cap: '10' }],
  // The dashboard's delivery log.
  ['list_deliveries', { method: 'GET', path: '/api/v1/deliveries', scope: 'read:content', cap: '10' }],
  // Issue 13: tracked-query management under write:queries, who is calling, and one job.
  ['update_query', { method: 'POST', path: '/api/v1/queries/update', scope: 'write:queries', cap: '10' }],
  ['remove_query', { method: 'POST', path: '/api/v1/queries/remove', scope: 'write:queries', cap: '10' }],
  ['get_caller', { method: 'GET', path: '/api/v1/caller', scope: 'any', cap: 'plan' }],
  ['get_job', { method: 'GET', path: '/api/v1/job', scope: 'read:analytics', cap: 'plan' }],
  // Issue 14: a check run on demand.
  ['run_visibility_check', { method: 'POST', path: '/api/v1/visibility/checks', scope: 'write:queries', cap: '10' }],
  // Issue 16: the owner's own outreach prospects (the CLI's CSV import sends them).
  ['add_outreach_prospects', { method: 'POST', path: '/api/v1/outreach/prospects', scope: 'write:content', cap: '10' }],
  // Issue 16: the outreach suppression list, read and managed by hand.
  ['list_outreach_suppressions', { method: 'GET', path: '/api/v1/outreach/suppressions', scope: 'read:content', cap: '30' }],
  ['set_outreach_suppression', { method: 'POST', path: '/api/v1/outreach/suppressions', scope: 'write:backlinks', cap: '30' }],
  // Issue 16: a prospect's thread with its drafts, and a draft's edits saved before any send.
  ['get_outreach_thread', { method: 'GET', path: '/api/v1/outreach/thread', scope: 'read:content', cap: '30' }],
  ['update_outreach_draft', { method: 'POST', path: '/api/v1/outreach/draft', scope: 'write:content', cap: '30' }],
  // Issue 16: one owner's side of a link-network placement, replayed by the approval flow.
  ['accept_link_placement', { method: 'POST', path: '/api/v1/link-network/accept', scope: 'write:backlinks', cap: '10' }],
  // Issue 16: links the owner placed (source managed), recorded and removed by the owner.
  ['add_managed_backlink', { method: 'POST', path: '/api/v1/backlinks/managed', scope: 'write:backlinks', cap: '30' }],
  ['remove_managed_backlink', { method: 'POST', path: '/api/v1/backlinks/managed/remove', scope: 'write:backlinks', cap: '30' }],
  // Issue 17: a social search on demand (the daily one runs by itself).
  ['search_social_threads', { method: 'POST', path: '/api/v1/social/search', scope: 'write:social', cap: '2' }],
  // The dashboard's workspace pages: the time zone, and the OAuth grants of the workspace.
  ['update_workspace_settings', { method: 'POST', path: '/api/v1/workspace', scope: 'manage:org', cap: '10' }],
  ['preview_article', { method: 'GET', path: '/api/v1/content/preview', scope: 'read:content', cap: '30' }],
  ['list_approvals', { method: 'GET', path: '/api/v1/approvals/list', scope: 'read:content', cap: '60' }],
  ['list_connected_apps', { method: 'GET', path: '/api/v1/workspace/apps', scope: 'any', cap: 'plan' }],
  ['revoke_connected_app', { method: 'POST', path: '/api/v1/workspace/apps/revoke', scope: 'any', cap: '10' }],
  // Issue 33: what Sightline noticed on its own.
  ['list_changes', { method: 'GET', path: '/api/v1/changes', scope: 'read:analytics', cap: 'plan' }],
  // Issue 33: alerts as they happen, their rules and channels.
  ['list_alert_rules', { method: 'GET', path: '/api/v1/changes/rules', scope: 'read:analytics', cap: 'plan' }],
  ['update_alert_rule', { method: 'POST', path: '/api/v1/changes/rules', scope: 'manage:org', cap: '30' }],
  ['update_alert_settings', { method: 'POST', path: '/api/v1/changes/alert-settings', scope: 'manage:org', cap: '10' }],
  ['list_alert_channels', { method: 'GET', path: '/api/v1/changes/channels', scope: 'read:analytics', cap: 'plan' }],
  ['add_alert_channel', { method: 'POST', path: '/api/v1/changes/channels', scope: 'manage:org', cap: '10' }],
  ['remove_alert_channel', { method: 'POST', path: '/api/v1/changes/channels/remove', scope: 'manage:org', cap: '10' }],
  ['send_test_alert', { method: 'POST', path: '/api/v1/changes/channels/test', scope: 'manage:org', cap: '10' }],
  // Issue 33: the weekly digest of any week, as it is mailed.
  ['get_digest', { method: 'GET', path: '/api/v1/changes/digest', scope: 'read:analytics', cap: 'plan' }],
]);

describe('registry against the specification', () => {
  it.skipIf(!existsSync(CATALOGUE))('every operation has the id, method, path, scope and cap of operations.md', () => {
    const catalogue = readCatalogue();
    expect(catalogue.size).toBe(91);
    for (const id of EXTENSIONS.keys()) expect(catalogue.has(id), `${id} is in the catalogue now: drop it from EXTENSIONS`).toBe(false);
    for (const op of registry.operations) {
      const row = catalogue.get(op.operationId) ?? EXTENSIONS.get(op.operationId);
      expect(row, `${op.operationId} is not in operations.md nor a documented extension`).toBeDefined();
      expect({ method: op.method, path: op.path, scope: op.scope, cap: String(op.cap) }).toEqual(row);
    }
  });

  it('each operation lives in tools/<toolset>/<operationId>.ts', () => {
    for (const op of registry.operations) {
      expect(existsSync(`${ROOT}tools/${op.toolset}/${op.operationId}.ts`), `tools/${op.toolset}/${op.operationId}.ts`).toBe(true);
    }
  });

  it('every operation file under tools/ is registered', () => {
    const declared = new Set(registry.operations.map((op) => `${op.toolset}/${op.operationId}`));
    for (const toolset of registry.toolsets) {
      for (const file of readdirSync(`${ROOT}tools/${toolset}`)) {
        // index.ts lists the toolset; outputs.ts holds the answer records its operations share.
        if (file === 'index.ts' || file === 'outputs.ts' || file.endsWith('.test.ts')) continue;
        expect(declared.has(`${toolset}/${file.replace(/\.ts$/, '')}`), `tools/${toolset}/${file} is not in the registry`).toBe(true);
      }
    }
  });

  it('annotations are all explicit, GET means read-only, and inputs have no unions', () => {
    for (const op of registry.operations) {
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof op.annotations[hint], `${op.operationId}.${hint}`).toBe('boolean');
      }
      expect(op.annotations.readOnlyHint, `${op.operationId}: GET must be read-only and only GET is`).toBe(op.method === 'GET');
      if (op.annotations.readOnlyHint) expect(op.annotations.destructiveHint).toBe(false);
      const schema = JSON.stringify(op.inputJsonSchema);
      expect(schema, `${op.operationId} input uses a union`).not.toMatch(/"(anyOf|oneOf)"/);
      expect(op.inputJsonSchema.type).toBe('object');
      expect(op.inputJsonSchema.additionalProperties, `${op.operationId} input must refuse unknown fields`).toBe(false);
    }
  });

  it('descriptions are written for a model and stay within budget', () => {
    for (const op of registry.operations) {
      expect(op.description.length, op.operationId).toBeGreaterThan(60);
      expect(op.description.length, op.operationId).toBeLessThanOrEqual(1200);
      expect(op.description, `${op.operationId}: no space around the description`).toBe(op.description.trim());
      // What an operation answers is in its output schema and in the answer itself; the description is for choosing it.
      expect(op.description, `${op.operationId}: the description lists what it returns`).not.toMatch(/\bReturns \{/);
      for (const [name, property] of Object.entries((op.inputJsonSchema.properties ?? {}) as Record<string, { description?: string }>)) {
        expect(property.description, `${op.operationId}.${name} has no description`).toBeTruthy();
      }
    }
  });
});
