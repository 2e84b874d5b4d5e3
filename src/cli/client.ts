import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JsonObject } from '../shared/objects.js';

/** The client's exit codes; scripts tell the failures apart by them. */
export const EXIT = { failure: 1, badInput: 2, auth: 3, notFound: 4, rateLimited: 5 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the client explains in one message and ends with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export function exitCodeOf(status: number): ExitCode {
  if (status === 400 || status === 413 || status === 415) return EXIT.badInput;
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 429) return EXIT.rateLimited;
  return EXIT.failure;
}

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface Endpoint {
  method: 'GET' | 'POST';
  path: string;
}

/** How long one call may take: article planning and site scans wait on outside providers. */
const REQUEST_TIMEOUT_MS = 5 * 60_000;
/** With --wait, a call still refused after this many waits gives up: the limit is not a per-minute one that resets. */
const MAX_RATE_LIMIT_WAITS = 10;
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
export const CLIENT_VERSION = version;
const USER_AGENT = `sightline-cli/${version}`;

export interface ClientOptions {
  baseUrl: string;
  key?: string;
  /** Retry 429 answers after their retryAfterMs. */
  waitWhenLimited?: boolean;
  /** Where "rate limited, retrying" notes go. */
  notify?: (line: string) => void;
}

/** Why a fetch failed: undici puts the network error (ECONNREFUSED, a DNS failure) in `cause`. */
export function fetchFailure(error: unknown): string {
  return (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** Calls the REST API: GET inputs as query values, POST inputs as a JSON body, answers read as `{ data }` or `{ error }`. */
export class ApiClient {
  constructor(readonly options: ClientOptions) {}

  /** One request, whatever its status; throws only when the server cannot be reached or answers with something not JSON. */
  async request(endpoint: Endpoint, input: Record<string, unknown>): Promise<ApiAnswer> {
    const url = new URL(`${this.options.baseUrl}${endpoint.path}`);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
    if (this.options.key !== undefined) headers.authorization = `Bearer ${this.options.key}`;
    let body: string | undefined;
    if (endpoint.method === 'GET') {
      for (const [name, value] of Object.entries(input)) if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    } else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input);
    }
    let response: Response;
    try {
      response = await fetch(url, { method: endpoint.method, headers, ...(body !== undefined ? { body } : {}), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (error) {
      throw new CliError(`cannot reach ${this.options.baseUrl}: ${fetchFailure(error)}`, EXIT.failure);
    }
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
    } catch {
      throw new CliError(`${url.origin} answered ${response.status} with something other than JSON; is ${this.options.baseUrl} a Sightline server?`, EXIT.failure);
    }
  }

  /** The answer's `data`; an error answer becomes a CliError with the server's message and the status's exit code. */
  async call(endpoint: Endpoint, input: Record<string, unknown>): Promise<JsonObject> {
    for (let waits = 0; ; waits += 1) {
      const answer = await this.request(endpoint, input);
      if (answer.status === 200) return (answer.body.data ?? {}) as JsonObject;
      const message = typeof answer.body.error === 'string' ? answer.body.error : `the server answered ${answer.status}`;
      if (answer.status !== 429) throw new CliError(message, exitCodeOf(answer.status));
      const retryAfterMs = typeof answer.body.retryAfterMs === 'number' ? answer.body.retryAfterMs : 1000;
      if (!this.options.waitWhenLimited) throw new CliError(`${message} (retry in ${seconds(retryAfterMs)}, or pass --wait to retry automatically)`, EXIT.rateLimited);
      if (waits === MAX_RATE_LIMIT_WAITS) throw new CliError(`${message} (still limited after ${waits} waits)`, EXIT.rateLimited);
      this.options.notify?.(`rate limited: ${message}; retrying in ${seconds(retryAfterMs)}`);
      await sleep(retryAfterMs);
    }
  }
}
