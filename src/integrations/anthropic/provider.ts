import { answerEngine } from '../kit/answerEngine.js';
import type { AnswerEngineConstructor } from '../../visibility/engines/constructor.js';
import { ClaudeEngine } from './claudeEngine.js';

/** Anthropic tier 1; web search is billed per search. */
export const CLAUDE = answerEngine({
  engine: 'claude',
  label: 'Claude',
  vendor: 'Anthropic',
  api: 'Anthropic Messages with web search',
  endpoint: { baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5' },
  requestsPerMinute: 50,
  price: { usdPerCall: 0.01, basis: 'Anthropic web search: $10 per 1,000 searches (a call may search more than once), plus tokens' },
  create: ((settings, tuning) => new ClaudeEngine(settings, tuning)) satisfies AnswerEngineConstructor,
});
