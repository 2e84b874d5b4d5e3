import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('defaults to 127.0.0.1:8787 on the embedded database', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8787, host: '127.0.0.1', publicUrl: 'http://127.0.0.1:8787', databaseUrl: undefined });
    expect(config.allowedHosts).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '[::1]']));
  });

  it('accepts the PUBLIC_URL host and origin, and the extra lists', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://sightline.example.com/', ALLOWED_HOSTS: 'a.example, b.example', ALLOWED_ORIGINS: 'https://app.example' });
    expect(config.publicUrl).toBe('https://sightline.example.com');
    expect(config.allowedHosts).toEqual(expect.arrayContaining(['sightline.example.com', 'a.example', 'b.example']));
    expect(config.allowedOrigins).toEqual(['https://sightline.example.com', 'https://app.example']);
  });

  it('allows MCP_DEV_NO_AUTH only on a loopback address', () => {
    expect(loadConfig({ MCP_DEV_NO_AUTH: '1' }).mcpDevNoAuth).toBe(true);
    expect(() => loadConfig({ MCP_DEV_NO_AUTH: '1', HOST: '0.0.0.0' })).toThrow(/^MCP_DEV_NO_AUTH: refused unless HOST is a loopback address/);
    expect(loadConfig({}).mcpDevNoAuth).toBe(false);
  });

  it('refuses a bad PORT or PUBLIC_URL naming the setting', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^PORT: /);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/^PORT: /);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/^PUBLIC_URL: /);
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://x.example' })).toThrow(/^PUBLIC_URL: /);
  });

  it('reads the link network settings: the embedding model, the similarity threshold and the monthly cap', () => {
    expect(loadConfig({}).linkNetwork).toEqual({ similarityThreshold: 0.8, monthlyCap: 4 });
    expect(loadConfig({ NETWORK_SIMILARITY_THRESHOLD: '0.65', NETWORK_MONTHLY_CAP: '10' }).linkNetwork).toEqual({ similarityThreshold: 0.65, monthlyCap: 10 });
    expect(() => loadConfig({ NETWORK_SIMILARITY_THRESHOLD: '1.5' })).toThrow(/^NETWORK_SIMILARITY_THRESHOLD: must be a number between 0 and 1/);
    expect(() => loadConfig({ NETWORK_MONTHLY_CAP: '0' })).toThrow(/^NETWORK_MONTHLY_CAP: /);
    expect(loadConfig({ WRITER_BASE_URL: 'https://api.openai.com/v1', WRITER_MODEL: 'gpt-4.1', WRITER_EMBEDDING_MODEL: 'text-embedding-3-small' }).writer?.embeddingModel).toBe('text-embedding-3-small');
  });

  it('reads the writer model settings: both or neither, a real URL, the key optional', () => {
    expect(loadConfig({}).writer).toBeUndefined();
    expect(loadConfig({ WRITER_BASE_URL: 'http://127.0.0.1:11434/v1/', WRITER_MODEL: 'llama3.1' }).writer).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'llama3.1',
    });
    expect(loadConfig({ WRITER_BASE_URL: 'https://api.openai.com/v1', WRITER_MODEL: 'gpt-4.1', WRITER_API_KEY: 'sk-x' }).writer?.apiKey).toBe('sk-x');
    expect(() => loadConfig({ WRITER_MODEL: 'gpt-4.1' })).toThrow(/^WRITER_BASE_URL and WRITER_MODEL: set both/);
    expect(() => loadConfig({ WRITER_BASE_URL: 'api.openai.com', WRITER_MODEL: 'x' })).toThrow(/^WRITER_BASE_URL: /);
  });

  it('reads ALLOW_PRIVATE_TARGETS and JOBS_POLL_MS', () => {
    expect(loadConfig({}).allowPrivateTargets).toBe(false);
    expect(loadConfig({ ALLOW_PRIVATE_TARGETS: '1' }).allowPrivateTargets).toBe(true);
    expect(loadConfig({}).jobsPollMs).toBe(1000);
    expect(loadConfig({ JOBS_POLL_MS: '0' }).jobsPollMs).toBe(0);
    expect(() => loadConfig({ JOBS_POLL_MS: 'often' })).toThrow(/^JOBS_POLL_MS: /);
  });

  it('reads the outreach mail settings: MAIL_ALLOW_INSECURE and OUTREACH_IMAP_POLL_MS', () => {
    expect(loadConfig({}).mail).toEqual({ allowInsecure: false, allowPrivateHosts: false, imapPollMs: 300_000 });
    expect(loadConfig({ MAIL_ALLOW_INSECURE: '1', ALLOW_PRIVATE_TARGETS: '1', OUTREACH_IMAP_POLL_MS: '60000' }).mail).toEqual({ allowInsecure: true, allowPrivateHosts: true, imapPollMs: 60_000 });
    expect(() => loadConfig({ OUTREACH_IMAP_POLL_MS: '10' })).toThrow(/^OUTREACH_IMAP_POLL_MS: /);
  });

  it('configures an answer engine by its key (official endpoint) or its base URL, with a default model and requests per minute', () => {
    const config = loadConfig({
      ENGINE_CHATGPT_API_KEY: 'sk-1',
      ENGINE_PERPLEXITY_BASE_URL: 'http://127.0.0.1:9000/',
      ENGINE_PERPLEXITY_MODEL: 'sonar-pro',
      ENGINE_PERPLEXITY_RPM: '1000',
    });
    expect(config.engines).toEqual({
      chatgpt: { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-1', model: 'gpt-4.1-mini', perMinute: 500 },
      perplexity: { baseUrl: 'http://127.0.0.1:9000', apiKey: undefined, model: 'sonar-pro', perMinute: 1000 },
    });
    expect(() => loadConfig({ ENGINE_CHATGPT_API_KEY: 'sk-1', ENGINE_CHATGPT_RPM: '2.5' })).toThrow(/^ENGINE_CHATGPT_RPM: must be a whole number/);
    expect(() => loadConfig({ ENGINE_CLAUDE_BASE_URL: 'anthropic' })).toThrow(/^ENGINE_CLAUDE_BASE_URL: /);
  });

  it('configures Hunter by its key, at its official address unless HUNTER_BASE_URL says otherwise (https only)', () => {
    expect(loadConfig({}).hunter).toBeUndefined();
    expect(loadConfig({ HUNTER_API_KEY: 'hk' }).hunter).toEqual({ baseUrl: 'https://api.hunter.io/v2', apiKey: 'hk' });
    expect(loadConfig({ HUNTER_API_KEY: 'hk', HUNTER_BASE_URL: 'https://hunter.internal/v2/' }).hunter).toEqual({ baseUrl: 'https://hunter.internal/v2', apiKey: 'hk' });
    expect(() => loadConfig({ HUNTER_BASE_URL: 'https://hunter.internal/v2' })).toThrow(/^HUNTER_BASE_URL: set HUNTER_API_KEY too/);
    expect(() => loadConfig({ HUNTER_API_KEY: 'hk', HUNTER_BASE_URL: 'http://hunter.internal/v2' })).toThrow(/^HUNTER_BASE_URL: must be an https URL/);
  });

  it('needs the three SERP settings together, and both Search Console client settings', () => {
    expect(loadConfig({}).serp).toBeUndefined();
    expect(loadConfig({ SERP_BASE_URL: 'https://api.dataforseo.com', SERP_LOGIN: 'me', SERP_PASSWORD: 'pw' }).serp).toEqual({
      baseUrl: 'https://api.dataforseo.com',
      login: 'me',
      password: 'pw',
      perMinute: 2000,
    });
    expect(() => loadConfig({ SERP_LOGIN: 'me' })).toThrow(/^SERP_BASE_URL, SERP_LOGIN and SERP_PASSWORD: set all three/);
    expect(loadConfig({ GSC_CLIENT_ID: 'id', GSC_CLIENT_SECRET: 'secret' }).searchConsole).toMatchObject({
      tokenUrl: 'https://oauth2.googleapis.com/token',
      apiBaseUrl: 'https://searchconsole.googleapis.com',
    });
    expect(() => loadConfig({ GSC_CLIENT_ID: 'id' })).toThrow(/^GSC_CLIENT_ID and GSC_CLIENT_SECRET/);
  });

  it('takes the Google Analytics client from GA4_*, else from the Search Console client, with Google endpoints by default', () => {
    expect(loadConfig({}).googleAnalytics).toBeUndefined();
    expect(loadConfig({ GA4_CLIENT_ID: 'ga', GA4_CLIENT_SECRET: 'ga-secret', GSC_CLIENT_ID: 'id', GSC_CLIENT_SECRET: 'secret' }).googleAnalytics).toEqual({
      clientId: 'ga',
      clientSecret: 'ga-secret',
      authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      adminApiUrl: 'https://analyticsadmin.googleapis.com',
      dataApiUrl: 'https://analyticsdata.googleapis.com',
    });
    expect(loadConfig({ GSC_CLIENT_ID: 'id', GSC_CLIENT_SECRET: 'secret' }).googleAnalytics).toMatchObject({ clientId: 'id', clientSecret: 'secret' });
    expect(() => loadConfig({ GA4_CLIENT_SECRET: 'ga-secret' })).toThrow(/^GA4_CLIENT_ID and GA4_CLIENT_SECRET: set both, or neither/);
    expect(() => loadConfig({ GA4_CLIENT_ID: 'ga', GA4_CLIENT_SECRET: 's', GA4_DATA_API_URL: 'ftp://x' })).toThrow(/^GA4_DATA_API_URL: /);
  });

  it('reads BACKLINK_VERIFY_EVERY_DAYS from 1 to 90, default 7', () => {
    expect(loadConfig({}).backlinkVerifyEveryDays).toBe(7);
    expect(loadConfig({ BACKLINK_VERIFY_EVERY_DAYS: '1' }).backlinkVerifyEveryDays).toBe(1);
    expect(() => loadConfig({ BACKLINK_VERIFY_EVERY_DAYS: '0' })).toThrow(/^BACKLINK_VERIFY_EVERY_DAYS: /);
    expect(() => loadConfig({ BACKLINK_VERIFY_EVERY_DAYS: 'weekly' })).toThrow(/^BACKLINK_VERIFY_EVERY_DAYS: /);
  });

  it('reads CHECK_RUNS_PER_QUERY from 1 to 10, default 1', () => {
    expect(loadConfig({}).checkRunsPerQuery).toBe(1);
    expect(loadConfig({ CHECK_RUNS_PER_QUERY: '3' }).checkRunsPerQuery).toBe(3);
    expect(() => loadConfig({ CHECK_RUNS_PER_QUERY: '0' })).toThrow(/^CHECK_RUNS_PER_QUERY: /);
  });
});
