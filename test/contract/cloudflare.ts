import { connectApiToken } from '../../src/analytics/cdn/connection.js';
import { FakeCloudflare, type FakeZone } from '../integrations/fakes/cloudflare.js';
import type { TestService, TestWorkspace } from '../support/harness.js';

/**
 * One local Cloudflare per contract test file: the CDN operations' fixtures connect workspaces to it with an API
 * token, and the service under test is pointed at it (and given an OAuth client) through cdnEnv().
 */
let fake: FakeCloudflare | undefined;

export const CONTRACT_ZONE: FakeZone = { id: '9a7806061c88ada191ed06f989cc3dac', name: 'acme.example', plan: 'Free Website', status: 'active' };

async function started(): Promise<FakeCloudflare> {
  if (fake === undefined) {
    fake = await FakeCloudflare.start();
    fake.zones = [CONTRACT_ZONE];
  }
  return fake;
}

/** The CDN_* settings that point a TestService at the local Cloudflare. */
export async function cdnEnv(): Promise<Record<string, string>> {
  const cloudflare = await started();
  const { authUrl, tokenUrl, apiBaseUrl } = cloudflare.endpoints();
  return { CDN_CLIENT_ID: cloudflare.clientId, CDN_CLIENT_SECRET: cloudflare.clientSecret, CDN_AUTH_URL: authUrl, CDN_TOKEN_URL: tokenUrl, CDN_API_BASE_URL: apiBaseUrl };
}

/** The workspace connected with a fresh API token of the local Cloudflare. */
export async function connectCloudflare(t: TestService, ws: TestWorkspace): Promise<void> {
  const cloudflare = await started();
  await connectApiToken(t.db, t.clock, t.service.services.cdn, t.service.services.credentials, ws.workspaceId, cloudflare.issueApiToken());
}

export async function closeCloudflare(): Promise<void> {
  await fake?.close();
  fake = undefined;
}
