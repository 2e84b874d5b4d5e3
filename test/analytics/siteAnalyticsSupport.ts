import { randomBytes } from 'node:crypto';
import { TestService } from '../support/harness.js';
import { FakeGa4 } from '../integrations/fakes/google/analytics.js';
import { FakeGoogleAccounts } from '../integrations/fakes/google/accounts.js';
import { FakePlausible } from '../integrations/fakes/plausible.js';
import { FakeUmami } from '../integrations/fakes/umami.js';

/** The accounts the Google account on the consent screen can read; the first property is the one FakeGa4 serves. */
export const accountsFor = (ga4: FakeGa4) => [
  { account: 'accounts/201934', displayName: 'Acme Inc', properties: [{ propertyId: ga4.propertyId, displayName: 'acme.example' }, { propertyId: '318274651', displayName: 'Acme staging' }] },
  { account: 'accounts/377120', displayName: 'Agency', properties: [{ propertyId: '402113', displayName: 'Another client' }] },
];

/** Every provider as a local server, and a service that seals credentials and reaches them (they listen on 127.0.0.1). */
export class SiteAnalyticsSetup {
  private constructor(
    readonly t: TestService,
    readonly plausible: FakePlausible,
    readonly umami: FakeUmami,
    readonly umamiCloud: FakeUmami,
    readonly ga4: FakeGa4,
    readonly google: FakeGoogleAccounts,
    /** The service's SECRETS_KEY. */
    readonly secretsKey: Buffer,
  ) {}

  static async start(): Promise<SiteAnalyticsSetup> {
    const [plausible, umami, umamiCloud, ga4] = await Promise.all([FakePlausible.start(), FakeUmami.start('self-hosted'), FakeUmami.start('cloud'), FakeGa4.start()]);
    const google = await FakeGoogleAccounts.start(() => ga4.issueToken());
    const secretsKey = randomBytes(32);
    const t = await TestService.start({
      writer: false,
      outbound: { allowPrivateAddresses: true },
      env: { ...google.env(ga4.origin), SECRETS_KEY: secretsKey.toString('hex') },
    });
    return new SiteAnalyticsSetup(t, plausible, umami, umamiCloud, ga4, google, secretsKey);
  }

  /** Between tests: the fakes' calls and queued failures forgotten, the accounts as accountsFor gives them. */
  reset(): void {
    for (const fake of [this.plausible, this.umami, this.umamiCloud, this.ga4, this.google]) fake.reset();
    this.google.accounts = accountsFor(this.ga4);
  }

  async close(): Promise<void> {
    await this.t.close();
    await Promise.all([this.plausible, this.umami, this.umamiCloud, this.ga4, this.google].map((fake) => fake.close()));
  }

  get services() {
    return this.t.service.services;
  }

  connectionRow(workspaceId: string) {
    return this.t.db.selectFrom('site_analytics_connections').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  }
}
