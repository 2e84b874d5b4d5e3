import { resolveMx } from 'node:dns/promises';
import type { Kysely } from 'kysely';
import { BACKLINK_INDEX, SERP } from './integrations/dataforseo/provider.js';
import { cdnService } from './analytics/cdn/connection.js';
import type { Database } from '../db/schema.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { CredentialSealer } from './credentials/sealed.js';
import type { LimiterStore } from './limits/store.js';
import type { MxResolver } from './outreach/contacts/finder.js';
import { HUNTER } from './integrations/hunter/provider.js';
import { OPERATOR_SMTP } from './integrations/smtp/provider.js';
import { SiteContactFinder } from './outreach/contacts/site.js';
import { SafeFetcher, type OutboundOptions } from './outbound/safeFetch.js';
import { DEFAULT_SOURCE_TUNING } from './social/sources/http.js';
import { openSocialSources } from './social/sources/index.js';
import { SourcePauses } from './social/sources/pauses.js';
import { LINKING_PAGE_TIMEOUT_MS, SPECIFIED_TIMING, type Services, type Timing } from './outsideServices.js';
import { createAnswerEngines } from './visibility/engines/index.js';
import { DEFAULT_ENGINE_TUNING, type EngineTuning } from './visibility/engines/providerHttp.js';
import { knownCallPrices } from './visibility/checks/prices.js';
import { bookedWriter } from './billing/writerLedger.js';
import { limitedWriter } from './writer/model.js';
import type { WriterTuning } from './integrations/openai/chatCompletionsWriter.js';
import { WRITER } from './integrations/openai/provider.js';

/** Writer requests in flight at once, across every instance: a local model serves few at a time, a hosted one rations them. */
const WRITER_CONCURRENCY = 4;

export interface ProviderOptions {
  /** Overrides the outbound settings of the configuration (tests reach their local servers on 127.0.0.1). */
  outbound?: OutboundOptions;
  /** Shortens the specification's delays (tests). */
  timing?: Partial<Timing>;
  /** Overrides the writer's timeouts and retries (tests). */
  writerTuning?: Partial<WriterTuning>;
  /** Overrides the answer engines', SERP provider's, backlink index's and social sources' timeouts and retries (tests). */
  engineTuning?: Partial<EngineTuning>;
  /** Answers MX look-ups in place of DNS (tests decide which prospect domains take mail). */
  mxResolver?: MxResolver;
}

/** Where writer calls are booked: the writer_usage ledger of this database, stamped by this clock. */
export interface Ledger {
  db: Kysely<Database>;
  clock: Clock;
}

/**
 * The outside providers built from the configuration: the service and the operator's run-checks command share them.
 * Their concurrency limits are slots in the shared limiter store, so they hold across every instance.
 */
export function createServices(config: Config, limiterStore: LimiterStore, ledger: Ledger, options: ProviderOptions = {}): { services: Services; close(): Promise<void> } {
  const fetcher = new SafeFetcher(options.outbound ?? { allowPrivateAddresses: config.allowPrivateTargets });
  const writer = config.writer === undefined ? undefined : WRITER.create(config.writer, options.writerTuning);
  const engineTuning = { ...DEFAULT_ENGINE_TUNING, ...options.engineTuning };
  const serp = SERP.create(config.serp, engineTuning, limiterStore);
  const backlinkIndex = BACKLINK_INDEX.create(config.backlinkIndex, engineTuning, limiterStore);
  const socialSources = openSocialSources(config.socialSources, new SourcePauses(ledger.db, ledger.clock), { ...DEFAULT_SOURCE_TUNING, ...options.engineTuning });
  const services: Services = {
    writer: writer === undefined ? undefined : bookedWriter(limitedWriter(writer, limiterStore.slots('writer', WRITER_CONCURRENCY)), ledger.db, ledger.clock),
    outbound: fetcher,
    timing: { ...SPECIFIED_TIMING, ...options.timing },
    engines: createAnswerEngines(config, serp, engineTuning, limiterStore),
    serp,
    backlinkIndex,
    searchConsole: config.searchConsole,
    googleAnalytics: config.googleAnalytics,
    cdn: cdnService(config.cdn, ledger.clock),
    siteBuilders: config.siteBuilders,
    checkRunsPerQuery: config.checkRunsPerQuery,
    callPrices: knownCallPrices(config),
    contacts: {
      hunter: config.hunter === undefined ? undefined : HUNTER.create(config.hunter, fetcher),
      site: new SiteContactFinder(fetcher, options.mxResolver ?? resolveMx),
    },
    credentials: new CredentialSealer(config.secretsKey, config.previousSecretsKeys),
    mail: config.mail,
    notificationMail: config.notificationMail === undefined ? undefined : OPERATOR_SMTP.create(config.notificationMail),
    publicUrl: config.publicUrl,
    linkNetwork: config.linkNetwork,
    backlinkVerification: { everyMs: config.backlinkVerifyEveryDays * 86_400_000, pageTimeoutMs: LINKING_PAGE_TIMEOUT_MS },
    socialSources,
    schedulers: { urls: config.schedulerUrls, limits: limiterStore },
  };
  return {
    services,
    async close() {
      await fetcher.close();
      await writer?.close();
      await Promise.all(Object.values(services.engines).map((engine) => engine.close?.()));
      await serp?.close();
      await backlinkIndex?.close();
      await Promise.all(Object.values(socialSources).map((source) => source.close()));
    },
  };
}
