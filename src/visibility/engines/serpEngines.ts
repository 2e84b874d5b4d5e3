import type { SerpClient, SerpPage } from '../serp/serp.js';
import type { AnswerEngine, EngineAnswer } from './engine.js';

/** The AI answer a search page showed, as an engine answer: its references are the citations; none shown is `notShown`. */
export function answerOfPage(page: Pick<SerpPage, 'aiOverview' | 'model' | 'latencyMs'>): EngineAnswer {
  const { aiOverview, model, latencyMs } = page;
  if (!aiOverview.shown) return { text: '', citations: [], model, latencyMs, notShown: true };
  return { text: aiOverview.text, citations: aiOverview.references, model, latencyMs };
}

/** Google's AI overview for the query, from the SERP provider's Google page. */
export function googleAiOverviewEngine(serp: SerpClient): AnswerEngine {
  return { name: 'google_ai_overview', fromSerp: 'google', ask: async (query, options) => answerOfPage(await serp.google(query, options)) };
}

/** Copilot's answer on Bing's search page, from the SERP provider's Bing page. */
export function bingCopilotEngine(serp: SerpClient): AnswerEngine {
  return { name: 'copilot', fromSerp: 'bing', ask: async (query, options) => answerOfPage(await serp.bing(query, options)) };
}
