import type { z } from 'zod';
import type { SafeFetcher } from '../../outbound/safeFetch.js';
import type { WebflowSettings } from '../../integrations/webflow/siteBuilder.js';
import type { CmsDestination } from './destination.js';

/**
 * Connections the workspace made once in the dashboard that a kind may write through instead of credentials of its
 * own (Webflow: the operator's app and the workspace's OAuth token). Read when called, so a reconnect counts at once.
 */
export interface WorkspaceConnections {
  /** The operator's Webflow app (undefined: not configured) and the workspace's token (undefined: not connected). */
  webflow(): Promise<{ app: WebflowSettings | undefined; accessToken: string | undefined }>;
}

/** What opening any CMS destination needs of the service. */
export interface CmsDeps {
  /** The SSRF guard: the CMS's address is the customer's choice (reach `customer` of the integrations kit). */
  fetcher: Pick<SafeFetcher, 'request'>;
  /** One call to the CMS, connect to last byte: the specification's 30 seconds for a delivery (services.timing). */
  timeoutMs: number;
  /** The injected clock, for tokens that carry a time. */
  now: () => number;
  /** The workspace's own connections, for a kind that writes through one. */
  connections: WorkspaceConnections;
}

/** One CMS destination as stored: its site's address, its settings, its opened credentials. */
export interface CmsConnection<Settings, Credentials> {
  siteUrl: string;
  settings: Settings;
  credentials: Credentials;
}

/** How a CMS's declaration opens one destination (`create`). */
export type CmsConstructor<Settings, Credentials> = (connection: CmsConnection<Settings, Credentials>, deps: CmsDeps) => CmsDestination;

/**
 * What a CMS's provider declaration adds for the publishing area (family `cms`): the object create_destination takes
 * for the kind, how it splits into shown settings and sealed credentials, how those read back, and `create`.
 */
export interface CmsKindParts<Input extends z.ZodObject, Settings, Credentials> {
  readonly label: string;
  /** create_destination's nested object for the kind (`ghost: { adminApiKey }`). */
  readonly input: Input;
  /** The CMS's API address for a site, shown as the destination's endpointUrl. */
  endpointOf(siteUrl: string, settings: Settings): string;
  split(input: z.output<Input>): { settings: Settings; credentials: Credentials };
  /** Read the stored JSON back. */
  readonly storedSettings: z.ZodType<Settings>;
  readonly storedCredentials: z.ZodType<Credentials>;
  /** What list_destinations shows: the settings, and each secret as its last characters only. */
  masked(settings: Settings, credentials: Credentials): Record<string, string>;
  readonly create: CmsConstructor<Settings, Credentials>;
}

/** A kind as the publishing area dispatches on it: the vendor's types checked at the edges by its own schemas. */
export interface CmsKind<Input extends z.ZodObject = z.ZodObject> {
  readonly label: string;
  readonly input: Input;
  endpointOf(siteUrl: string, settings: string): string;
  /** Settings and credentials JSON to store, from the kind's create_destination object. */
  split(input: unknown): { settings: string; credentials: string };
  masked(settings: string, credentials: string): Record<string, string>;
  open(siteUrl: string, settings: string, credentials: string, deps: CmsDeps): CmsDestination;
}

export function cmsKind<Input extends z.ZodObject, Settings, Credentials>(parts: CmsKindParts<Input, Settings, Credentials>): CmsKind<Input> {
  const read = (settings: string, credentials: string) => ({
    settings: parts.storedSettings.parse(JSON.parse(settings)),
    credentials: parts.storedCredentials.parse(JSON.parse(credentials)),
  });
  return {
    label: parts.label,
    input: parts.input,
    endpointOf: (siteUrl, settings) => parts.endpointOf(siteUrl, parts.storedSettings.parse(JSON.parse(settings))),
    split(input) {
      const { settings, credentials } = parts.split(parts.input.parse(input));
      return { settings: JSON.stringify(settings), credentials: JSON.stringify(credentials) };
    },
    masked(settings, credentials) {
      const stored = read(settings, credentials);
      return parts.masked(stored.settings, stored.credentials);
    },
    open(siteUrl, settings, credentials, deps) {
      return parts.create({ siteUrl, ...read(settings, credentials) }, deps);
    },
  };
}

/** A secret as views show it: its last four characters. */
export function lastFour(secret: string): string {
  return `…${secret.slice(-4)}`;
}
