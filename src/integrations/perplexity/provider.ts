import { answerEngine } from '../kit/answerEngine.js';
import type { AnswerEngineConstructor } from '../../visibility/engines/constructor.js';
import { PerplexityEngine } from './perplexityEngine.js';

/** Perplexity tiers 0 and 1 (sonar models); the Sonar request fee at low search context. */
export const PERPLEXITY = answerEngine({
  engine: 'perplexity',
  label: 'Perplexity',
  vendor: 'Perplexity',
  api: 'Perplexity Sonar',
  endpoint: { baseUrl: 'https://api.perplexity.ai', model: 'sonar' },
  requestsPerMinute: 50,
  price: { usdPerCall: 0.005, basis: 'Perplexity Sonar request fee (low search context): $5 per 1,000 requests, plus tokens' },
  create: ((settings, tuning) => new PerplexityEngine(settings, tuning)) satisfies AnswerEngineConstructor,
});
