import { SignJWT } from 'jose';
import { SIGNING_ALGORITHM, verifyToken, type SigningKey, type SigningKeys } from './tokens.js';

/**
 * The state an MCP server hands a client to echo when it retries a call after asking its person something
 * (2026-07-28 multi-round-trip requests). The client can read and alter it, so it travels signed with the
 * authorization server's own key (shared by every instance through the database): any instance verifies what
 * another minted. Its audience is not the MCP resource, so it can never pass for an access token, nor a token for it.
 */
export interface RequestStateClaims {
  /** The tool the call was for: a state is only good for a retry of the same tool. */
  operationId: string;
  /** The credential that made the call: a state is only good for its own caller. */
  credentialId: string;
  /** The approval the person was sent to decide. */
  approvalId: string;
}

const TYPE = 'sightline-mcp-request-state';

function audienceOf(issuer: string): string {
  return `${issuer}/mcp#request-state`;
}

export function signRequestState(key: SigningKey, issuer: string, claims: RequestStateClaims, nowMs: number, expiresAtMs: number): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  return new SignJWT({ op: claims.operationId, cred: claims.credentialId, apr: claims.approvalId })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, typ: TYPE, kid: key.kid })
    .setIssuer(issuer)
    .setAudience(audienceOf(issuer))
    .setIssuedAt(now)
    .setExpirationTime(Math.max(now + 1, Math.floor(expiresAtMs / 1000)))
    .sign(key.privateKey);
}

/** The claims of a state this service signed and that is still valid; undefined for anything else. */
export async function openRequestState(keys: SigningKeys, issuer: string, state: string, nowMs: number): Promise<RequestStateClaims | undefined> {
  try {
    const payload = await verifyToken(keys, state, { issuer, audience: audienceOf(issuer), typ: TYPE, currentDate: new Date(nowMs) });
    const { op, cred, apr } = payload;
    if (typeof op !== 'string' || typeof cred !== 'string' || typeof apr !== 'string') return undefined;
    return { operationId: op, credentialId: cred, approvalId: apr };
  } catch {
    return undefined;
  }
}
