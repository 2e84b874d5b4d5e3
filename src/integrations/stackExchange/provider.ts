import { declareProvider, httpUrl, readValue, setting, type Environment } from '../kit/declaration.js';
import { commaList } from '../../shared/commaList.js';
import type { SocialSourceConstructor } from '../../social/sources/constructor.js';
import { StackExchangeSource, type StackExchangeSettings } from './socialSource.js';

/** Stack Exchange API 2.3: 300 requests a day without a key, 10,000 with one; on unless SOCIAL_SOURCES_OFF lists it. */
export const STACK_EXCHANGE = declareProvider({
  id: 'stackexchange',
  family: 'social source',
  label: 'Stack Exchange',
  turnedOnBy: [],
  settings: [
    {
      names: ['STACKEXCHANGE_SITES', 'STACKEXCHANGE_KEY', 'STACKEXCHANGE_BASE_URL'],
      default: '`stackoverflow`, —, `https://api.stackexchange.com/2.3`',
      meaning:
        'Comma-separated Stack Exchange sites searched for social threads (`stackoverflow,superuser,webmasters`...), one request per site. Without a key 300 requests a day per IP; with an app key (stackapps.com) 10,000',
    },
  ],
  create: ((settings, pauses, tuning) => new StackExchangeSource(settings, pauses, tuning)) satisfies SocialSourceConstructor<StackExchangeSettings>,
  read(env: Environment): StackExchangeSettings {
    const sites = commaList(setting(env, 'STACKEXCHANGE_SITES'));
    for (const site of sites) if (!/^[a-z0-9.-]+$/.test(site)) throw new Error(`STACKEXCHANGE_SITES: "${site}" is not a Stack Exchange site name (stackoverflow, superuser, webapps...)`);
    return {
      baseUrl: readValue(env, 'STACKEXCHANGE_BASE_URL', httpUrl, 'https://api.stackexchange.com/2.3'),
      key: setting(env, 'STACKEXCHANGE_KEY'),
      sites: sites.length > 0 ? sites : ['stackoverflow'],
    };
  },
});
