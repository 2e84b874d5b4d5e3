import { declareProvider, httpUrl, readTogether, readValue, type Environment } from '../kit/declaration.js';
import { WebflowClient, type WebflowSettings } from './siteBuilder.js';
import type { WebflowConstructor } from '../../analytics/builders/constructor.js';

const APP = { names: ['WEBFLOW_CLIENT_ID', 'WEBFLOW_CLIENT_SECRET'] } as const;

export const WEBFLOW = declareProvider({
  id: 'webflow',
  family: 'site builder',
  label: 'Webflow',
  turnedOnBy: APP.names,
  settings: [
    {
      names: APP.names,
      default: '—',
      meaning: "Webflow Data Client app for `install_sitebuilder_embed`; redirect URI `<PUBLIC_URL>/dashboard/webflow/callback`. `WEBFLOW_AUTH_URL`, `WEBFLOW_API_BASE_URL` override Webflow's endpoints",
      secrets: ['WEBFLOW_CLIENT_SECRET'],
    },
  ],
  create: ((settings, accessToken, clock) => new WebflowClient(settings, accessToken, clock)) satisfies WebflowConstructor,
  read(env: Environment): WebflowSettings | undefined {
    const app = readTogether(env, APP);
    if (app === undefined) return undefined;
    const [clientId, clientSecret] = app;
    return {
      clientId,
      clientSecret,
      authUrl: readValue(env, 'WEBFLOW_AUTH_URL', httpUrl, 'https://webflow.com/oauth/authorize'),
      apiBaseUrl: readValue(env, 'WEBFLOW_API_BASE_URL', httpUrl, 'https://api.webflow.com'),
    };
  },
});
