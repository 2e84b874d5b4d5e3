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
  /** Outbound requests to addresses others choose (client metadata documents, webhooks, customer pages): private targets allowed? Local testing only. */
  allowPrivateTargets: boolean;
  /** The OpenAI-compatible chat-completions server that writes; undefined when not configured. */
  writer: WriterSettings | undefined;
  /** How often the in-process worker looks for due jobs; 0 stops it (tests drive it by hand). */
  jobsPollMs: number;
  /** Private-use URI schemes desktop MCP hosts may register as OAuth redirect URIs (besides https and loopback http). */
  oauthRedirectSchemes: string[];
}

export interface WriterSettings {
  /** Base URL ending before `/chat/completions`, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama). */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
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

function parseWriter(env: NodeJS.ProcessEnv): WriterSettings | undefined {
  const baseUrl = env.WRITER_BASE_URL || undefined;
  const model = env.WRITER_MODEL || undefined;
  if (baseUrl === undefined && model === undefined) return undefined;
  if (baseUrl === undefined || model === undefined) throw new Error('WRITER_BASE_URL and WRITER_MODEL: set both, or neither');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`WRITER_BASE_URL: must be an absolute http(s) URL, got "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('WRITER_BASE_URL: must use http or https');
  return { baseUrl: url.href.replace(/\/+$/, ''), apiKey: env.WRITER_API_KEY || undefined, model };
}

function parseJobsPoll(value: string | undefined): number {
  if (value === undefined || value === '') return 1000;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`JOBS_POLL_MS: must be a whole number of milliseconds (0 stops the worker), got "${value}"`);
  return ms;
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
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS === '1',
    writer: parseWriter(env),
    jobsPollMs: parseJobsPoll(env.JOBS_POLL_MS),
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
