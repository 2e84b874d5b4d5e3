import { operationOf, type CliCatalogue } from '../../adapters/cli.js';
import { ApiClient, CliError, EXIT, fetchFailure } from './client.js';
import type { Connection, Profile, ProfileStore } from './profiles.js';

/** RFC 8628 §3.5: each slow_down adds five seconds to the polling interval. */
const SLOW_DOWN_STEP_SECONDS = 5;

export interface DeviceLoginOptions {
  catalogue: CliCatalogue;
  server: string;
  scope?: string;
  /** Waits between polls; tests pass one that moves their clock. */
  sleep: (ms: number) => Promise<void>;
  /** Shows the person where to go and which code to enter. */
  instruct: (started: { verificationUri: string; verificationUriComplete: string; userCode: string }) => Promise<void>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : String(value));

/**
 * The device login (RFC 8628): start, show the code, poll at the server's interval (slower after each slow_down) until
 * the person approves, denies or the code expires. Answers the profile for the minted key.
 */
export async function deviceLogin(options: DeviceLoginOptions): Promise<Profile> {
  const client = new ApiClient({ baseUrl: options.server });
  const started = await client.call(operationOf(options.catalogue, 'post_auth_device_start'), {
    client_id: 'sightline-cli',
    ...(options.scope !== undefined ? { scope: options.scope } : {}),
  });
  await options.instruct({
    verificationUri: text(started.verification_uri),
    verificationUriComplete: text(started.verification_uri_complete),
    userCode: text(started.user_code),
  });
  let intervalMs = Number(started.interval) * 1000;
  const poll = operationOf(options.catalogue, 'post_auth_device_poll');
  for (;;) {
    await options.sleep(intervalMs);
    const answer = await client.request(poll, { device_code: started.device_code });
    if (answer.status === 200) {
      const data = answer.body.data as Record<string, unknown>;
      return { key: text(data.access_token), keyId: text(data.key_id), workspaceId: text(data.workspace_id), scope: text(data.scope), savedAt: new Date().toISOString() };
    }
    switch (answer.body.error) {
      case 'authorization_pending':
        continue;
      case 'slow_down':
        intervalMs += SLOW_DOWN_STEP_SECONDS * 1000;
        continue;
      case 'access_denied':
        throw new CliError('the login was denied on the approval page', EXIT.auth);
      case 'expired_token':
        throw new CliError('the code expired before it was approved; run sightline login again', EXIT.auth);
      default:
        throw new CliError(`the login failed: ${text(answer.body.error ?? answer.status)}`, EXIT.auth);
    }
  }
}

/** Revokes an API key at the server's revocation endpoint (RFC 7009); says why when it could not. */
export async function revokeAtServer(server: string, key: string): Promise<{ revoked: boolean; revokeError?: string }> {
  try {
    const response = await fetch(`${server}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: key, token_type_hint: 'access_token', client_id: 'sightline-cli' }),
      signal: AbortSignal.timeout(30_000),
    });
    return response.ok ? { revoked: true } : { revoked: false, revokeError: `the server answered ${response.status}` };
  } catch (error) {
    return { revoked: false, revokeError: fetchFailure(error) };
  }
}

/**
 * Revokes the stored key on the server and forgets the profile. An unreachable server does not keep the key on
 * disk: the profile goes, and the answer says the key may still be live.
 */
export async function logout(store: ProfileStore, connection: Connection): Promise<{ server: string; removed: boolean; revoked: boolean; revokeError?: string }> {
  const profile = connection.profile;
  if (profile === undefined) return { server: connection.server, removed: false, revoked: false };
  const revocation = await revokeAtServer(connection.server, profile.key);
  store.remove(connection.server);
  return { server: connection.server, removed: true, ...revocation };
}

/** What get_caller answers (see tools/auth/get_caller.ts). */
interface Caller {
  workspace: { id: string; name: string; websiteUrl: string };
  via: 'api_key' | 'oauth';
  apiKey: { id: string; name: string } | null;
  scopes: string[];
  plan: { name: string; limits: { requestsPerMinute: number } };
}

export interface Identity {
  server: string;
  keySource: Connection['keySource'];
  keyId: string | null;
  keyName: string | null;
  workspaceId: string;
  workspaceName: string;
  websiteUrl: string;
  scopes: string[];
  plan: string;
  requestsPerMinute: number;
}

/** Asks the server who the key is (get_caller, open to any valid key): 401 means the key is not valid. */
export async function whoami(catalogue: CliCatalogue, connection: Connection, key: string): Promise<Identity> {
  const answer = await new ApiClient({ baseUrl: connection.server, key }).request(operationOf(catalogue, 'get_caller'), {});
  if (answer.status === 401) throw new CliError(`the key (${connection.keySource}) is not valid on ${connection.server}: it was revoked or never existed; run sightline login`, EXIT.auth);
  if (answer.status !== 200) throw new CliError(`${connection.server} answered ${answer.status}: ${text(answer.body.error)}`, EXIT.failure);
  const caller = answer.body.data as Caller;
  return {
    server: connection.server,
    keySource: connection.keySource,
    keyId: caller.apiKey?.id ?? null,
    keyName: caller.apiKey?.name ?? null,
    workspaceId: caller.workspace.id,
    workspaceName: caller.workspace.name,
    websiteUrl: caller.workspace.websiteUrl,
    scopes: caller.scopes,
    plan: caller.plan.name,
    requestsPerMinute: caller.plan.limits.requestsPerMinute,
  };
}
