import type { AskOptions, Citation } from '../engines/engine.js';

export interface OrganicResult {
  /** 1-based rank among organic results. */
  position: number;
  url: string;
  domain: string;
  title: string | null;
}

/** An AI answer on a search page: Google's AI overview, or Copilot's answer on Bing. */
export interface AiOverview {
  /** Not every query shows one. */
  shown: boolean;
  text: string;
  references: Citation[];
}

/**
 * A SERP data provider with a DataForSEO-compatible API: Google and Bing organic results (top 30) with the AI answer each
 * page shows (Google's AI overview, Copilot's answer on Bing) and its references, and a web search to find a company's
 * website from its name.
 */
export interface SerpPage {
  organic: OrganicResult[];
  aiOverview: AiOverview;
  model: string;
  latencyMs: number;
}

export interface SerpClient {
  google(query: string, options: AskOptions): Promise<SerpPage>;
  /** Bing's page: its `aiOverview` is Copilot's answer there. */
  bing(query: string, options: AskOptions): Promise<SerpPage>;
  /** The official website (an origin) of a company or product, or undefined when the search finds none; searched in the locale's country (default en). */
  findWebsite(name: string, options?: AskOptions): Promise<string | undefined>;
  /** Releases the client's connections (on shutdown). */
  close(): Promise<void>;
}
