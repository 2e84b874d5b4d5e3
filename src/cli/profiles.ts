import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { CliError, EXIT } from './client.js';

/** What a login leaves for one server: the minted key and what it is bound to. */
export interface Profile {
  key: string;
  keyId: string;
  workspaceId: string;
  scope: string;
  savedAt: string;
}

interface StoredProfiles {
  /** The server of the last login: commands without --url or SIGHTLINE_URL go there. */
  current?: string;
  servers: Record<string, Profile>;
}

/** The service's own default address, for a first login without --url. */
export const DEFAULT_SERVER = 'http://127.0.0.1:8787';

/** A server address as profiles are keyed: scheme, host, port and path, without a trailing slash. */
export function normaliseServer(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`--url: "${text}" is not an absolute URL such as https://sightline.example.com`, EXIT.badInput);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--url: must be an http or https URL, got ${url.protocol}`, EXIT.badInput);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * Profiles in the user's config directory (XDG_CONFIG_HOME on Linux), one per server. The file holds API keys, so it
 * is written 0600 inside a 0700 directory, through a temporary file renamed over it: a crash never leaves half a file.
 */
export class ProfileStore {
  readonly file: string;

  constructor(readonly directory = envPaths('sightline', { suffix: '' }).config) {
    this.file = join(directory, 'profiles.json');
  }

  private read(): StoredProfiles {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { servers: {} };
      throw error;
    }
    try {
      const stored = JSON.parse(text) as StoredProfiles;
      return { ...stored, servers: stored.servers ?? {} };
    } catch {
      throw new CliError(`${this.file} is not valid JSON; delete it and run sightline login again`, EXIT.failure);
    }
  }

  private write(stored: StoredProfiles): void {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    // The mode given to writeFileSync is narrowed by the umask only; chmod makes it exact.
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.file);
  }

  get current(): string | undefined {
    return this.read().current;
  }

  profile(server: string): Profile | undefined {
    return this.read().servers[server];
  }

  save(server: string, profile: Profile): void {
    const stored = this.read();
    this.write({ current: server, servers: { ...stored.servers, [server]: profile } });
  }

  /** Forgets a server's profile; the current server moves to another stored one, if any. Answers whether one was stored. */
  remove(server: string): boolean {
    const stored = this.read();
    if (stored.servers[server] === undefined) return false;
    const { [server]: _removed, ...servers } = stored.servers;
    const current = stored.current === server ? Object.keys(servers)[0] : stored.current;
    this.write({ ...(current !== undefined ? { current } : {}), servers });
    return true;
  }
}

export interface Connection {
  server: string;
  key: string | undefined;
  /** Where the key came from, for whoami. */
  keySource: '--key' | 'SIGHTLINE_API_KEY' | 'login' | 'none';
  profile: Profile | undefined;
}

/** --url, then SIGHTLINE_URL, then the last login's server, then the service's default address. */
export function resolveServer(url: string | undefined, env: NodeJS.ProcessEnv, store: ProfileStore): string {
  return normaliseServer(url ?? (env.SIGHTLINE_URL || undefined) ?? store.current ?? DEFAULT_SERVER);
}

/** The server as resolveServer finds it; --key, then SIGHTLINE_API_KEY, then that server's login. */
export function resolveConnection(options: { url?: string; key?: string }, env: NodeJS.ProcessEnv, store: ProfileStore): Connection {
  const server = resolveServer(options.url, env, store);
  const profile = store.profile(server);
  if (options.key !== undefined) return { server, key: options.key, keySource: '--key', profile };
  if (env.SIGHTLINE_API_KEY) return { server, key: env.SIGHTLINE_API_KEY, keySource: 'SIGHTLINE_API_KEY', profile };
  if (profile !== undefined) return { server, key: profile.key, keySource: 'login', profile };
  return { server, key: undefined, keySource: 'none', profile };
}

export function requireKey(connection: Connection): string {
  if (connection.key !== undefined) return connection.key;
  throw new CliError(`not logged in to ${connection.server}: run sightline login --url ${connection.server}, or set SIGHTLINE_API_KEY`, EXIT.auth);
}
