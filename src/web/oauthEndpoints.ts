import express, { type NextFunction, type Request, type Response } from 'express';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { registerClient, revokeToken, tokenRequest } from '../oauth/authorization.js';
import type { OAuthIssuer } from '../oauth/issuer.js';
import { DeviceFlowError, pollDeviceAuthorization } from '../oauth/device.js';
import { OAuthError } from '../oauth/tokens.js';
import { BadInputError, type ServiceError } from '../errors.js';
import type { CallResult } from '../pipeline/pipeline.js';
import { clientAddress } from './security.js';

/** Metadata, registration, token and revocation answer any origin: browser-based MCP clients call them directly. */
function openCors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version');
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  next();
}

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

function oauthError(res: Response, error: unknown): void {
  res.setHeader('Cache-Control', 'no-store');
  if (error instanceof DeviceFlowError) {
    res.status(400).json(error.toBody());
    return;
  }
  if (!(error instanceof OAuthError)) throw error;
  res.status(error.status).json({ error: error.error, error_description: error.description });
}

/** A refused device-login start in OAuth's shape where OAuth has one (bad input), else the service's own envelope (429, 503). */
function deviceStartRefused(res: Response, error: ServiceError): void {
  if (error instanceof BadInputError) {
    oauthError(res, new OAuthError('invalid_request', error.message));
    return;
  }
  if (error instanceof DeviceFlowError) {
    oauthError(res, error);
    return;
  }
  const body = error.toBody();
  if (body.retryAfterMs !== undefined) res.setHeader('Retry-After', String(Math.ceil(body.retryAfterMs / 1000)));
  res.status(error.status).json(body);
}

const text = (params: Record<string, unknown>, name: string) => (typeof params[name] === 'string' ? (params[name] as string) : undefined);

export interface OAuthEndpointDeps {
  db: Kysely<Database>;
  clock: Clock;
  issuer: OAuthIssuer;
  /** post_auth_device_start through the pipeline: the standard endpoint spends the same per-address cap. */
  startDeviceLogin(address: string, input: Record<string, string>): Promise<CallResult>;
}

export function oauthEndpoints(deps: OAuthEndpointDeps): express.Router {
  const { db, clock, issuer } = deps;
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  router.use(['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/oauth/register', '/oauth/token', '/oauth/revoke', '/oauth/jwks', '/oauth/device_authorization'], openCors);

  router.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.json(issuer.authorizationServerMetadata());
  });
  // Both the path-suffixed URL of RFC 9728 and the bare one, which some clients try first.
  router.get(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'], (_req, res) => {
    res.json(issuer.protectedResourceMetadata());
  });
  router.get('/oauth/jwks', async (_req, res) => {
    // The signing key is made on first need; the JWKS lists it and every key still verifying after a rotation.
    await issuer.keys.signing();
    res.json({ keys: (await issuer.keys.live()).map((key) => key.publicJwk) });
  });

  router.post('/oauth/register', express.json({ limit: '16kb' }), async (req, res) => {
    try {
      res.status(201).setHeader('Cache-Control', 'no-store').json(await registerClient(db, clock, req.body, issuer.privateRedirectSchemes));
    } catch (error) {
      oauthError(res, error);
    }
  });

  // The same device login as POST /api/v1/auth/device/*, at the standard endpoints, so any OAuth client completes it.
  router.post('/oauth/device_authorization', form, async (req, res) => {
    const params = (req.body ?? {}) as Record<string, unknown>;
    const clientId = text(params, 'client_id');
    const scope = text(params, 'scope');
    const result = await deps.startDeviceLogin(clientAddress(req), { ...(clientId ? { client_id: clientId } : {}), ...(scope !== undefined ? { scope } : {}) });
    if (result.ok) res.setHeader('Cache-Control', 'no-store').json(result.data);
    else deviceStartRefused(res, result.error);
  });

  router.post('/oauth/token', form, async (req, res) => {
    const params = (req.body ?? {}) as Record<string, unknown>;
    try {
      if (params.grant_type === DEVICE_CODE_GRANT) {
        const deviceCode = text(params, 'device_code');
        if (deviceCode === undefined) throw new OAuthError('invalid_request', 'device_code is required');
        const { access_token, token_type, scope } = await pollDeviceAuthorization(db, clock, deviceCode);
        res.setHeader('Cache-Control', 'no-store').json({ access_token, token_type, scope });
        return;
      }
      const tokens = await tokenRequest(db, await issuer.tokenSettings(), params);
      res.setHeader('Cache-Control', 'no-store').json(tokens);
    } catch (error) {
      oauthError(res, error);
    }
  });

  router.post('/oauth/revoke', form, async (req, res) => {
    const token = (req.body as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string') {
      oauthError(res, new OAuthError('invalid_request', 'token is required'));
      return;
    }
    await revokeToken({ ...(await issuer.tokenSettings()), db }, token);
    res.status(200).end();
  });

  return router;
}
