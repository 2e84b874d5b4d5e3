/** Settings from the environment, read once at start. The README's configuration table mirrors this file. */
export interface Config {
  port: number;
  host: string;
  /** Public base URL without a trailing slash: used in links handed to people and agents. */
  publicUrl: string;
  databaseUrl: string | undefined;
  /** Host names accepted in the Host header (DNS-rebinding protection). */
  allowedHosts: string[];
  /** Cross-origin pages allowed to call /mcp; same-origin requests and requests without Origin always pass. */
  allowedOrigins: string[];
  bootstrap: { workspaceName: string; siteUrl: string };
  /**
   * Development only: /mcp requests without credentials act with every scope in the first workspace. For the
   * official conformance suite, which cannot send a token; refused unless the service is bound to loopback.
   */
  mcpDevNoAuth: boolean;
  /** Outbound requests to addresses others choose (client metadata documents): private targets allowed? */
  outboundAllowPrivate: boolean;
  /** Private-use URI schemes desktop MCP hosts may register as OAuth redirect URIs (besides https and loopback http). */
  oauthRedirectSchemes: string[];
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 8787;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT: must be a whole number from 0 to 65535, got "${value}"`);
  return port;
}

function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL: must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('PUBLIC_URL: must use http or https');
  return url.href.replace(/\/+$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort(env.PORT);
  const host = env.HOST || '127.0.0.1';
  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const publicUrl = parsePublicUrl(env.PUBLIC_URL || `http://${displayHost}:${port}`);
  const publicHost = new URL(publicUrl).hostname;
  const allowedHosts = [...new Set([...LOOPBACK_HOSTS, publicHost, ...list(env.ALLOWED_HOSTS)])];
  const allowedOrigins = [...new Set([new URL(publicUrl).origin, ...list(env.ALLOWED_ORIGINS)])];
  const mcpDevNoAuth = env.MCP_DEV_NO_AUTH === '1';
  if (mcpDevNoAuth && !['127.0.0.1', 'localhost', '::1'].includes(host)) {
    throw new Error('MCP_DEV_NO_AUTH: refused unless HOST is a loopback address (127.0.0.1, localhost or ::1)');
  }
  return {
    port,
    mcpDevNoAuth,
    outboundAllowPrivate: env.OUTBOUND_ALLOW_PRIVATE_ADDRESSES === '1',
    host,
    publicUrl,
    databaseUrl: env.DATABASE_URL || undefined,
    allowedHosts,
    allowedOrigins,
    oauthRedirectSchemes: env.OAUTH_REDIRECT_SCHEMES === undefined ? ['cursor', 'vscode', 'vscode-insiders', 'claude', 'windsurf'] : list(env.OAUTH_REDIRECT_SCHEMES),
    bootstrap: {
      workspaceName: env.BOOTSTRAP_WORKSPACE_NAME || 'My site',
      siteUrl: env.BOOTSTRAP_SITE_URL || 'https://example.com',
    },
  };
}
