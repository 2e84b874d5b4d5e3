import { declareProvider, httpUrl, readTogether, readValue, setting, type Environment } from '../kit/declaration.js';
import { WixClient, type WixSettings } from './siteBuilder.js';
import type { WixConstructor } from '../../analytics/builders/constructor.js';

const APP = { names: ['WIX_APP_ID', 'WIX_APP_SECRET'] } as const;
const WIX_API = 'https://www.wixapis.com';

export const WIX = declareProvider({
  id: 'wix',
  family: 'site builder',
  label: 'Wix',
  turnedOnBy: APP.names,
  settings: [
    {
      names: APP.names,
      default: '—',
      meaning: `Wix app with an Embedded Script extension for \`install_sitebuilder_custom_code\` (see [Site builders](analytics.md)); \`WIX_SCRIPT_COMPONENT_ID\` when the app has several, \`WIX_API_BASE_URL\` overrides \`${WIX_API}\``,
      secrets: ['WIX_APP_SECRET'],
    },
  ],
  create: ((settings, instanceId, clock) => new WixClient(settings, instanceId, clock)) satisfies WixConstructor,
  read(env: Environment): WixSettings | undefined {
    const app = readTogether(env, APP);
    if (app === undefined) return undefined;
    const [appId, appSecret] = app;
    return { appId, appSecret, apiBaseUrl: readValue(env, 'WIX_API_BASE_URL', httpUrl, WIX_API), componentId: setting(env, 'WIX_SCRIPT_COMPONENT_ID') };
  },
});
