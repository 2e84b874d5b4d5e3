import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { Principal } from '../auth/principal.js';
import { ALL_SCOPES } from '../scopes.js';
import { ClientDirectory, recordStepUpChallenge, type TokenContext } from './authorization.js';
import type { SafeFetcher } from '../outbound/safeFetch.js';
import type { CredentialSealer } from '../credentials/sealed.js';
import { openRequestState, signRequestState, type RequestStateClaims } from './requestState.js';
import { principalFromAccessToken, SigningKeys } from './tokens.js';

/**
 * This service as its own OAuth 2.1 authorization server for the MCP resource. The issuer, the resource metadata's
 * authorization server and the token `iss` are the same string, byte for byte: the public URL, no trailing slash.
 */
export class OAuthIssuer {
  readonly issuer: string;
  readonly resource: string;
  readonly resourceMetadataUrl: string;
  readonly clients: ClientDirectory;
  readonly keys: SigningKeys;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    publicUrl: string,
    readonly privateRedirectSchemes: ReadonlySet<string>,
    fetcher: SafeFetcher,
    credentials: CredentialSealer,
  ) {
    this.clients = new ClientDirectory(db, clock, fetcher, privateRedirectSchemes);
    this.keys = new SigningKeys(db, clock, credentials);
    this.issuer = publicUrl;
    this.resource = `${publicUrl}/mcp`;
    this.resourceMetadataUrl = `${publicUrl}/.well-known/oauth-protected-resource/mcp`;
  }

  /** Resolved before any transaction opens: on SQLite the key's first load needs the one connection a transaction holds. */
  async tokenSettings(): Promise<Omit<TokenContext, 'db'>> {
    return { clock: this.clock, key: await this.keys.signing(), keys: this.keys, issuer: this.issuer, resource: this.resource };
  }

  /**
   * An insufficient_scope challenge was sent to a token of this grant (see STEP_UP_WINDOW_MS), in answer to a request
   * with this MCP-Protocol-Version header (absent: the client may be one that needs the refresh refused).
   */
  async recordStepUp(grantId: string, scopes: readonly string[], protocolVersion?: string): Promise<void> {
    await recordStepUpChallenge(this.db, this.clock, grantId, scopes, protocolVersion);
  }

  /** A multi-round-trip request state, signed so that any instance can trust it when the client echoes it. */
  async mintRequestState(claims: RequestStateClaims, expiresAtMs: number): Promise<string> {
    return signRequestState(await this.keys.signing(), this.issuer, claims, this.clock.now(), expiresAtMs);
  }

  openRequestState(state: string): Promise<RequestStateClaims | undefined> {
    return openRequestState(this.keys, this.issuer, state, this.clock.now());
  }

  async principal(token: string): Promise<Principal> {
    return principalFromAccessToken(this.db, this.clock, this.keys, { issuer: this.issuer, audience: this.resource }, token);
  }

  authorizationServerMetadata() {
    return {
      issuer: this.issuer,
      authorization_endpoint: `${this.issuer}/oauth/authorize`,
      token_endpoint: `${this.issuer}/oauth/token`,
      registration_endpoint: `${this.issuer}/oauth/register`,
      revocation_endpoint: `${this.issuer}/oauth/revoke`,
      device_authorization_endpoint: `${this.issuer}/oauth/device_authorization`,
      jwks_uri: `${this.issuer}/oauth/jwks`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: ALL_SCOPES,
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      service_documentation: `${this.issuer}/api/v1/openapi.json`,
    };
  }

  protectedResourceMetadata() {
    return {
      resource: this.resource,
      authorization_servers: [this.issuer],
      scopes_supported: ALL_SCOPES,
      bearer_methods_supported: ['header'],
      // One resource on two surfaces: a token for it works at /mcp and on the REST API alike (docs/guide/security.md).
      resource_name: 'Sightline (MCP at /mcp and the REST API at /api/v1)',
      resource_documentation: `${this.issuer}/api/v1/openapi.json`,
    };
  }
}
