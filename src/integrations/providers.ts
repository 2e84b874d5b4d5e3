import { CLAUDE } from './anthropic/provider.js';
import { BLUESKY } from './bluesky/provider.js';
import { BUFFER } from './buffer/provider.js';
import { CLOUDFLARE } from './cloudflare/provider.js';
import { BACKLINK_INDEX, SERP } from './dataforseo/provider.js';
import { GHOST } from './ghost/provider.js';
import { GEMINI, GOOGLE_ANALYTICS, SEARCH_CONSOLE } from './google/provider.js';
import { HACKER_NEWS } from './hackerNews/provider.js';
import { HUNTER } from './hunter/provider.js';
import type { Environment, ProviderFamily } from './kit/declaration.js';
import { COPILOT_SEARCH } from './microsoft/provider.js';
import { CHATGPT, WRITER } from './openai/provider.js';
import { PERPLEXITY } from './perplexity/provider.js';
import { PLAUSIBLE } from './plausible/provider.js';
import { POSTIZ } from './postiz/provider.js';
import { REDDIT } from './reddit/provider.js';
import { OPERATOR_SMTP } from './smtp/provider.js';
import { STACK_EXCHANGE } from './stackExchange/provider.js';
import { TYPEFULLY } from './typefully/provider.js';
import { UMAMI } from './umami/provider.js';
import { WEBFLOW, WEBFLOW_CMS } from './webflow/provider.js';
import { WIX } from './wix/provider.js';
import { WORDPRESS } from './wordpress/provider.js';

/**
 * Every outside provider the operator can configure, in the order the configuration table lists them. A new provider
 * is a folder under src/integrations/ with its provider.ts (which reads its settings and opens it), and one line here.
 */
export const PROVIDERS = [
  WRITER,
  CHATGPT,
  PERPLEXITY,
  GEMINI,
  CLAUDE,
  SERP,
  BACKLINK_INDEX,
  COPILOT_SEARCH,
  SEARCH_CONSOLE,
  GOOGLE_ANALYTICS,
  PLAUSIBLE,
  UMAMI,
  CLOUDFLARE,
  WEBFLOW,
  WIX,
  GHOST,
  WORDPRESS,
  WEBFLOW_CMS,
  HUNTER,
  HACKER_NEWS,
  STACK_EXCHANGE,
  BLUESKY,
  REDDIT,
  POSTIZ,
  BUFFER,
  TYPEFULLY,
  OPERATOR_SMTP,
] as const;

type Provider = (typeof PROVIDERS)[number];

/** Each provider's settings by its id, as its declaration reads them. */
export type ProviderSettings = { [P in Provider as P['id']]: ReturnType<P['read']> };

/** Reads every provider's settings; throws at the first setting that is wrong, naming it. */
export function readProviderSettings(env: Environment): ProviderSettings {
  return Object.fromEntries(PROVIDERS.map((provider) => [provider.id, provider.read(env)])) as ProviderSettings;
}

/** The providers of one family, in the order of PROVIDERS, typed as declared: what the family's factory opens. */
export function providersOf<Family extends ProviderFamily>(family: Family): Array<Extract<Provider, { family: Family }>> {
  return PROVIDERS.filter((provider): provider is Extract<Provider, { family: Family }> => provider.family === family);
}

/** The declaration with this id, typed as declared. */
export function providerDeclaration<Id extends Provider['id']>(id: Id): Extract<Provider, { id: Id }> {
  return PROVIDERS.find((provider) => provider.id === id) as Extract<Provider, { id: Id }>;
}
