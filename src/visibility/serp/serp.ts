import type { AskOptions, Citation, EngineAnswer } from '../engines/engine.js';

export interface OrganicResult {
  /** 1-based rank among organic results. */
  position: number;
  url: string;
  domain: string;
  title: string | null;
}

export interface AiOverview {
  /** Not every query shows an overview. */
  shown: boolean;
  text: string;
  references: Citation[];
}

/**
 * A SERP data provider with a DataForSEO-compatible API: Google and Bing organic results (top 30), Google's AI
 * overview with its references, Copilot's answer, and a web search to find a company's website from its name.
 */
export interface SerpClient {
  google(query: string, options: AskOptions): Promise<{ organic: OrganicResult[]; aiOverview: AiOverview; model: string; latencyMs: number }>;
  bing(query: string, options: AskOptions): Promise<{ organic: OrganicResult[] }>;
  /** False when the provider has no Copilot endpoint: then Copilot is not configured and never checked. */
  readonly servesCopilot: boolean;
  /** Throws EngineError('not_configured') when the provider cannot serve Copilot. */
  copilot(query: string, options: AskOptions): Promise<EngineAnswer>;
  /** The official website (an origin) of a company or product, or undefined when the search finds none; searched in the locale's country (default en). */
  findWebsite(name: string, options?: AskOptions): Promise<string | undefined>;
  /** Releases the client's connections (on shutdown). */
  close(): Promise<void>;
}
