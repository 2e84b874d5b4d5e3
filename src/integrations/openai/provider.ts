import { answerEngine } from '../kit/answerEngine.js';
import { declareProvider, readTogether, setting, type Environment } from '../kit/declaration.js';
import { z } from 'zod';
import type { AnswerEngineConstructor } from '../../visibility/engines/constructor.js';
import { OpenAiResponsesEngine } from './chatgptEngine.js';
import type { WriterConstructor } from '../../writer/constructor.js';
import { OpenAiCompatibleWriter, type WriterSettings } from './chatCompletionsWriter.js';

/** The writer's base URL as the URL parser spells it, without trailing slashes; it tells a bad address from a bad scheme. */
const writerUrl = z.string().transform((value, context) => {
  if (!URL.canParse(value)) {
    context.addIssue({ code: 'custom', message: `must be an absolute http(s) URL, got "${value}"` });
    return z.NEVER;
  }
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    context.addIssue({ code: 'custom', message: 'must use http or https' });
    return z.NEVER;
  }
  return url.href.replace(/\/+$/, '');
});

/** The writer model: any OpenAI-compatible chat-completions server (OpenAI, Ollama, vLLM, llama.cpp). */
export const WRITER = declareProvider({
  id: 'writer',
  family: 'writer',
  label: 'The writer model',
  turnedOnBy: ['WRITER_BASE_URL', 'WRITER_MODEL'],
  settings: [
    {
      names: ['WRITER_BASE_URL'],
      default: '—',
      meaning:
        'The writer model: an OpenAI-compatible chat-completions server, up to but not including `/chat/completions` (`https://api.openai.com/v1`, Ollama `http://127.0.0.1:11434/v1`, a vLLM or llama.cpp server). Unset: operations that need the writer answer 400 naming these settings; their dry runs still answer',
    },
    { names: ['WRITER_MODEL'], default: '—', meaning: 'Model name sent to the writer server (`gpt-4.1`, `llama3.1`, …); set together with `WRITER_BASE_URL`' },
    { names: ['WRITER_API_KEY'], default: '—', meaning: 'Bearer key for the writer server, when it needs one', secrets: ['WRITER_API_KEY'] },
    {
      names: ['WRITER_EMBEDDING_MODEL'],
      default: '—',
      meaning: 'Embedding model asked at `{WRITER_BASE_URL}/embeddings` (`text-embedding-3-small`, Ollama `nomic-embed-text`, …). Unset: the link network\'s matching proposes nothing and says so',
    },
  ],
  create: ((settings, tuning) => new OpenAiCompatibleWriter(settings, tuning)) satisfies WriterConstructor,
  read(env: Environment): WriterSettings | undefined {
    const values = readTogether(env, { names: ['WRITER_BASE_URL', 'WRITER_MODEL'] });
    if (values === undefined) return undefined;
    const [baseUrl, model] = values;
    const parsed = writerUrl.safeParse(baseUrl);
    if (!parsed.success) throw new Error(`WRITER_BASE_URL: ${parsed.error.issues[0]?.message}`);
    return { baseUrl: parsed.data, apiKey: setting(env, 'WRITER_API_KEY'), model, embeddingModel: setting(env, 'WRITER_EMBEDDING_MODEL') };
  },
});

/** OpenAI tier 1's limit; the web search tool's fee per call. */
export const CHATGPT = answerEngine({
  engine: 'chatgpt',
  label: 'ChatGPT',
  vendor: 'OpenAI',
  api: 'OpenAI Responses API with web search',
  endpoint: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini' },
  requestsPerMinute: 500,
  price: { usdPerCall: 0.01, basis: 'OpenAI web search tool: $10 per 1,000 calls, plus tokens' },
  create: ((settings, tuning) => new OpenAiResponsesEngine(settings, tuning)) satisfies AnswerEngineConstructor,
});
