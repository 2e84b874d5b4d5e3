import { z } from 'zod';

/**
 * What every outside provider declares once: its settings (read from the environment and documented in the
 * configuration table), its limits and prices, and the words "not configured" answers use. The settings part of
 * src/config.ts, the provider rows of docs/guide/configuration.md and those answers are all read from it.
 */

/** The environment as the service reads it: an empty value counts as unset. */
export type Environment = Readonly<Record<string, string | undefined>>;

export type ProviderFamily =
  | 'writer'
  | 'answer engine'
  | 'serp'
  | 'backlink index'
  | 'copilot search'
  | 'search console'
  | 'web analytics'
  | 'cdn'
  | 'site builder'
  | 'social source'
  | 'contact finder'
  | 'scheduler'
  | 'cms'
  | 'notification mail';

/** One row of the configuration table: one variable, or a few documented together. */
export interface SettingDoc {
  readonly names: readonly string[];
  /** As the table shows it, Markdown: `—` when unset means off. */
  readonly default: string;
  /** What it does, Markdown, links relative to docs/guide/. */
  readonly meaning: string;
  /** Those of `names` that hold a key, password or client secret: never logged, never shown back. */
  readonly secrets?: readonly string[];
}

/** A published fixed fee per call, in US dollars; model tokens, where the provider also bills them, come on top. */
export interface CallPrice {
  usdPerCall: number;
  basis: string;
}

/** The published limit of the entry paid tier; an operator on a higher tier raises it with the setting. */
export interface RequestsPerMinute {
  readonly setting: string;
  readonly default: number;
}

export interface ProviderLimits {
  /** Requests a minute all instances together send at most, unless the operator's setting says otherwise. */
  readonly requestsPerMinute?: RequestsPerMinute;
  /** The price of one call, by the host of the endpoint it holds at (a compatible server elsewhere has prices of its own). */
  readonly prices?: Readonly<Record<string, CallPrice>>;
}

export interface ProviderDeclaration<Settings = unknown> {
  /** Unique across PROVIDERS: the vendor folder's name, or the vendor and the interface when it serves several. */
  readonly id: string;
  readonly family: ProviderFamily;
  /** How messages name it: "Search Console is not configured …". */
  readonly label: string;
  /** The settings that turn it on, as "not configured" messages name them; empty when it is on without any. */
  readonly turnedOnBy: readonly string[];
  readonly settings: readonly SettingDoc[];
  readonly limits?: ProviderLimits;
  /** Its typed settings from the environment (undefined when not configured); throws naming the setting that is wrong. */
  read(env: Environment): Settings;
  /**
   * Opens the provider from the settings `read` gave, with what its family's factory hands every provider of the
   * family; its type is the family's (`SocialSourceConstructor`, …), which the area declares.
   */
  readonly create?: (...args: never[]) => unknown;
}

/** Keeps the declaration's own type (its literal id, its settings type, any fields of its family) for PROVIDERS. */
export function declareProvider<const Declaration extends ProviderDeclaration>(declaration: Declaration): Declaration {
  return declaration;
}

/** Names the way a sentence lists them: `A`, `A and B`, `A, B and C`. */
export function nameList(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** "Search Console is not configured: the operator must set GSC_CLIENT_ID and GSC_CLIENT_SECRET". */
export function notConfigured(provider: Pick<ProviderDeclaration, 'label' | 'turnedOnBy'>, where = ''): string {
  return `${provider.label} is not configured${where}: the operator must set ${nameList(provider.turnedOnBy)}`;
}

/** Its settings as one pattern, the common start of their names: `SERP_*`, `ENGINE_CLAUDE_*`. */
export function settingsPattern(provider: Pick<ProviderDeclaration, 'settings'>): string {
  const names = provider.settings.flatMap((documented) => documented.names);
  let common = names[0] ?? '';
  for (const name of names) while (!name.startsWith(common)) common = common.slice(0, -1);
  return `${common.slice(0, common.lastIndexOf('_') + 1)}*`;
}

/** A variable's value, an empty one counting as unset. */
export function setting(env: Environment, name: string): string | undefined {
  return env[name] || undefined;
}

/** Settings that only work together: all set, or none. */
export interface SetTogether {
  readonly names: readonly string[];
  /**
   * How a refusal reads. `group` names the group: "A and B: set both, or neither". `missing` names the one that is
   * missing: "B: set A and B together, or neither" (pairs only).
   */
  readonly wording?: 'group' | 'missing';
  /** Said after the rule, such as what serves when none is set. */
  readonly note?: string;
}

function togetherRefusal(group: SetTogether, values: ReadonlyArray<string | undefined>): string {
  const note = group.note === undefined ? '' : ` ${group.note}`;
  if (group.wording === 'missing') {
    const missing = group.names[values.indexOf(undefined)];
    return `${missing}: set ${nameList(group.names)} together, or neither${note}`;
  }
  const rule = group.names.length === 2 ? 'set both, or neither' : group.names.length === 3 ? 'set all three, or none' : 'set all of them, or none';
  return `${nameList(group.names)}: ${rule}${note}`;
}

/** The group's values in its order when all are set, undefined when none is; throws when only some are. */
export function readTogether<const Names extends readonly string[]>(env: Environment, group: SetTogether & { readonly names: Names }): { [Index in keyof Names]: string } | undefined {
  const values = group.names.map((name) => setting(env, name));
  if (values.every((value) => value === undefined)) return undefined;
  if (values.some((value) => value === undefined)) throw new Error(togetherRefusal(group, values));
  return values as { [Index in keyof Names]: string };
}

/** A setting that means nothing without another: `name` may be set only when `needed` is. */
export function refuseWithout(env: Environment, name: string, needed: string): void {
  if (setting(env, name) !== undefined && setting(env, needed) === undefined) throw new Error(`${name}: set ${needed} too, or neither`);
}

/**
 * Value rules: zod schemas from the variable's text to its value, whose issue says what the value must be. `readValue`
 * turns a failure into "NAME: must be …, got "value"".
 */
export const httpUrl = z
  .string()
  .refine((value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol), 'must be an absolute http(s) URL')
  .transform((value) => value.replace(/\/+$/, ''));

export function wholeNumber(min: number, max: number, unit?: string) {
  const rule = `must be a whole number${unit === undefined ? '' : ` of ${unit}`} from ${min} to ${max}`;
  return z
    .string()
    .transform(Number)
    .refine((number) => Number.isInteger(number) && number >= min && number <= max, rule);
}

/** Requests a minute an operator may allow a provider. */
export const requestsPerMinute = wholeNumber(1, 100_000, 'requests per minute');

/** The setting's value by its rule, `fallback` when unset; throws naming the setting and quoting the value. */
export function readValue<T>(env: Environment, name: string, rule: z.ZodType<T, string>, fallback: string): T;
export function readValue<T>(env: Environment, name: string, rule: z.ZodType<T, string>): T | undefined;
export function readValue<T>(env: Environment, name: string, rule: z.ZodType<T, string>, fallback?: string): T | undefined {
  const raw = setting(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  const result = rule.safeParse(raw);
  if (!result.success) throw new Error(`${name}: ${result.error.issues[0]?.message}, got "${raw}"`);
  return result.data;
}

/** A provider's requests a minute: its setting, else its declared default. */
export function readRequestsPerMinute(env: Environment, limit: RequestsPerMinute): number {
  return readValue(env, limit.setting, requestsPerMinute, String(limit.default));
}

/** The price of one call to the provider at `baseUrl`, when its declaration knows that endpoint's price. */
export function priceAt(provider: Pick<ProviderDeclaration, 'limits'>, baseUrl: string): CallPrice | undefined {
  return provider.limits?.prices?.[new URL(baseUrl).hostname];
}
