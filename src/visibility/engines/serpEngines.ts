import type { SerpClient } from '../serp/serp.js';
import type { AnswerEngine } from './engine.js';

/**
 * Google's AI overview for the query, from the SERP provider, with its references as the citations. A query that shows
 * no overview gives an answer with no text and no citations: the engine showed nothing, which is classified `none` for
 * every brand (not a failure, which is kept for errors, timeouts and refusals).
 */
export function googleAiOverviewEngine(serp: SerpClient): AnswerEngine {
  return {
    name: 'google_ai_overview',
    async ask(query, options) {
      const { aiOverview, model, latencyMs } = await serp.google(query, options);
      if (!aiOverview.shown) return { text: '', citations: [], model, latencyMs };
      return { text: aiOverview.text, citations: aiOverview.references, model, latencyMs };
    },
  };
}

/** Copilot's answer and sources, from a SERP provider that serves Copilot. */
export function copilotEngine(serp: SerpClient): AnswerEngine {
  return { name: 'copilot', ask: (query, options) => serp.copilot(query, options) };
}
