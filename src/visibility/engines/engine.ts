import type { EngineName } from '../../../db/schema.js';
import { ProviderError, type ProviderErrorFacts, type ProviderErrorKind } from '../../integrations/kit/providerError.js';
import { domainOf } from '../../shared/urls.js';

export type { EngineName };

/** The six answer engines, in the order reports show them. */
export const ENGINE_NAMES: readonly EngineName[] = ['chatgpt', 'perplexity', 'gemini', 'claude', 'google_ai_overview', 'copilot'];

/** The engines' names as people write them. */
export const ENGINE_LABELS: Record<EngineName, string> = {
  chatgpt: 'ChatGPT',
  perplexity: 'Perplexity',
  gemini: 'Gemini',
  claude: 'Claude',
  google_ai_overview: "Google's AI overview",
  copilot: 'Copilot',
};

/** One entry of an engine's final citation list, normalised. */
export interface Citation {
  url: string;
  /** Host without `www.`, lower-case. */
  domain: string;
  title: string | null;
  /** 1-based order in the engine's list. */
  rank: number;
}

export interface EngineAnswer {
  /** The answer text as the engine gave it ('' when it showed none). */
  text: string;
  /**
   * True when a search page's answer surface (Google's AI overview, Copilot on Bing) did not appear for the query: the
   * engine was asked and answered, but showed no answer. Recorded as `not_shown`, apart from `none` and from failures.
   */
  notShown?: boolean;
  citations: Citation[];
  /** The model or provider version that answered. */
  model: string;
  latencyMs: number;
}

export type EngineErrorClass = 'timeout' | 'rate_limited' | 'provider_error' | 'refused' | 'bad_response' | 'not_configured';

const KIND_OF_CLASS: Record<EngineErrorClass, ProviderErrorKind> = {
  timeout: 'unavailable',
  rate_limited: 'rate_limited',
  provider_error: 'unavailable',
  refused: 'refused',
  bad_response: 'bad_answer',
  not_configured: 'not_configured',
};

/** The provider's kind: a refused key (401, 403) is `auth`, though the engines' reports file it as a provider_error. */
function kindOf(errorClass: EngineErrorClass, status: number | null | undefined): ProviderErrorKind {
  if (errorClass === 'provider_error' && (status === 401 || status === 403)) return 'auth';
  return KIND_OF_CLASS[errorClass];
}

/**
 * A check that did not produce an answer: recorded as failed, never as `none`. Not transient, whatever its class: the
 * adapter already retried what it could, and says so with a TransientEngineError when a later attempt may succeed.
 */
export class EngineError extends ProviderError {
  constructor(
    provider: string,
    readonly errorClass: EngineErrorClass,
    message: string,
    facts: ProviderErrorFacts = {},
  ) {
    super(provider, kindOf(errorClass, facts.status), message, { timedOut: errorClass === 'timeout', ...facts });
  }

  override get transient(): boolean {
    return false;
  }
}

export interface AskOptions {
  /** BCP-47 locale of the brand, for the engines that take a language or location. */
  locale: string;
}

/** One answer engine behind its provider's real protocol. */
export interface AnswerEngine {
  readonly name: EngineName;
  /**
   * The SERP provider's search page this engine's answer is read from, when it is: a rank check of that page can then
   * record the engine's first run from the same paid call.
   */
  readonly fromSerp?: 'google' | 'bing';
  ask(query: string, options: AskOptions): Promise<EngineAnswer>;
  /** Releases the engine's connections (on shutdown). */
  close?(): Promise<void>;
}

/** Normalises a provider's citation list: http(s) only, first occurrence of each URL, ranks 1..n. */
export function normaliseCitations(items: ReadonlyArray<{ url: string; title?: string | null }>): Citation[] {
  const seen = new Set<string>();
  const citations: Citation[] = [];
  for (const item of items) {
    const domain = domainOf(item.url);
    if (domain === undefined || seen.has(item.url)) continue;
    seen.add(item.url);
    citations.push({ url: item.url, domain, title: item.title ?? null, rank: citations.length + 1 });
  }
  return citations;
}
