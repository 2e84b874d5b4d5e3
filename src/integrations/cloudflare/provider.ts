import { declareProvider, httpUrl, readTogether, readValue, type Environment } from '../kit/declaration.js';
import { CLOUDFLARE_ENDPOINTS, CloudflareClient, type CdnSettings } from './cdn.js';
import type { CdnConstructor } from '../../analytics/cdn/constructor.js';
import { z } from 'zod';

/**
 * Cloudflare names OAuth scopes after API-token permissions (Zone Read, Analytics Read); refresh tokens come with the
 * client's `refresh_token` grant type, not a scope. The operator sets CDN_SCOPES to the ids Cloudflare lists for them.
 */
export const DEFAULT_CDN_SCOPES = ['zone.read', 'analytics.read'];

const OAUTH_CLIENT = { names: ['CDN_CLIENT_ID', 'CDN_CLIENT_SECRET'] } as const;
const tokenAuthMethod = z.enum(['client_secret_basic', 'client_secret_post'], 'must be client_secret_basic or client_secret_post (as the OAuth client was registered)');

/** The CDN source: its endpoints always, the operator's OAuth client when CDN_CLIENT_ID is set (else owners paste a token). */
export const CLOUDFLARE = declareProvider({
  id: 'cdn',
  family: 'cdn',
  label: 'Cloudflare OAuth',
  turnedOnBy: OAUTH_CLIENT.names,
  settings: [
    {
      names: OAUTH_CLIENT.names,
      default: '—',
      meaning: `Cloudflare OAuth client for \`get_cdn_connect_url\`; redirect URL \`<PUBLIC_URL>/integrations/cdn/callback\`. Also \`CDN_TOKEN_AUTH_METHOD\` (\`client_secret_basic\`), \`CDN_SCOPES\` (\`${DEFAULT_CDN_SCOPES.join(' ')}\`), and \`CDN_AUTH_URL\`, \`CDN_TOKEN_URL\`, \`CDN_API_BASE_URL\` (Cloudflare's). Without the client, owners paste an API token`,
      secrets: ['CDN_CLIENT_SECRET'],
    },
  ],
  create: ((settings, clock) => new CloudflareClient({ endpoints: settings.endpoints, clock })) satisfies CdnConstructor,
  read(env: Environment): CdnSettings {
    const client = readTogether(env, OAUTH_CLIENT);
    const method = readValue(env, 'CDN_TOKEN_AUTH_METHOD', tokenAuthMethod, 'client_secret_basic');
    const scopes = env.CDN_SCOPES === undefined || env.CDN_SCOPES === '' ? DEFAULT_CDN_SCOPES : env.CDN_SCOPES.split(/[\s,]+/).filter((scope) => scope !== '');
    const [clientId, clientSecret] = client ?? [];
    return {
      oauth: clientId === undefined || clientSecret === undefined ? undefined : { clientId, clientSecret, tokenAuthMethod: method },
      scopes,
      endpoints: {
        authUrl: readValue(env, 'CDN_AUTH_URL', httpUrl, CLOUDFLARE_ENDPOINTS.authUrl),
        tokenUrl: readValue(env, 'CDN_TOKEN_URL', httpUrl, CLOUDFLARE_ENDPOINTS.tokenUrl),
        apiBaseUrl: readValue(env, 'CDN_API_BASE_URL', httpUrl, CLOUDFLARE_ENDPOINTS.apiBaseUrl),
      },
    };
  },
});
