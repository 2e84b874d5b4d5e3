import { declareProvider, httpUrl, readRequestsPerMinute, readValue, setting, type CallPrice, type Environment } from './declaration.js';

export interface EngineSettings {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** Calls started per minute at most, across every instance (ENGINE_<NAME>_RPM). */
  perMinute: number;
}

/** The engine's official endpoint and a current model with web search, used when only the key is set. */
interface EngineEndpoint {
  baseUrl: string;
  model: string;
}

interface AnswerEngine<Engine extends string, Create> {
  engine: Engine;
  label: string;
  /** Whose key turns it on, and which of its APIs is asked, as the configuration table says it. */
  vendor: string;
  api: string;
  endpoint: EngineEndpoint;
  /** Requests a minute the provider allows on its entry paid tier, as published. */
  requestsPerMinute: number;
  price: CallPrice;
  /** Opens the engine from its settings (the family's `AnswerEngineConstructor`). */
  create: Create;
}

/**
 * The four answer engines with an API of their own are declared alike: ENGINE_<NAME>_API_KEY (official endpoint) or
 * ENGINE_<NAME>_BASE_URL (a compatible server that needs no key) turns one on; the model and the pace have defaults.
 */
export function answerEngine<const Engine extends string, Create extends (settings: EngineSettings, ...deps: never[]) => unknown>({
  engine,
  label,
  vendor,
  api,
  endpoint,
  requestsPerMinute,
  price,
  create,
}: AnswerEngine<Engine, Create>) {
  const prefix = `ENGINE_${engine.toUpperCase()}_`;
  const limits = { requestsPerMinute: { setting: `${prefix}RPM`, default: requestsPerMinute }, prices: { [new URL(endpoint.baseUrl).hostname]: price } };
  return declareProvider({
    id: engine,
    family: 'answer engine',
    label,
    turnedOnBy: [`${prefix}API_KEY`],
    settings: [
      {
        names: [`${prefix}API_KEY`, `${prefix}BASE_URL`],
        default: `—, \`${endpoint.baseUrl}\``,
        meaning: `Turn on ${label}: ${vendor}'s key (${api}), or the base URL of another endpoint speaking the same protocol (a proxy, a compatible server), which turns it on alone too. An engine without settings is shown as not configured and never checked`,
        secrets: [`${prefix}API_KEY`],
      },
      { names: [`${prefix}MODEL`], default: `\`${endpoint.model}\``, meaning: 'Model asked' },
      {
        names: [`${prefix}RPM`],
        default: `\`${requestsPerMinute}\``,
        meaning: "Requests it may be sent per minute, by all instances together (the entry paid tier's published limit: raise it to your tier's); see [Weekly checks within the providers' limits](visibility.md)",
      },
    ],
    limits,
    create,
    read(env: Environment): EngineSettings | undefined {
      const apiKey = setting(env, `${prefix}API_KEY`);
      if (apiKey === undefined && setting(env, `${prefix}BASE_URL`) === undefined) return undefined;
      return {
        baseUrl: readValue(env, `${prefix}BASE_URL`, httpUrl, endpoint.baseUrl),
        apiKey,
        model: setting(env, `${prefix}MODEL`) ?? endpoint.model,
        perMinute: readRequestsPerMinute(env, limits.requestsPerMinute),
      };
    },
  });
}
