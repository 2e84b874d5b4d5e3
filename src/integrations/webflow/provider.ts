import { declareProvider, httpUrl, readTogether, readValue, type Environment } from '../kit/declaration.js';

/** The operator's Webflow Data Client app, which owners authorize for their sites in the dashboard (OAuth code grant). */
export interface WebflowSettings {
  clientId: string;
  clientSecret: string;
  /** Webflow's consent screen. */
  authUrl: string;
  /** Where `/oauth/access_token` and `/v2/…` live; overridable so a local server can play Webflow in tests. */
  apiBaseUrl: string;
}

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
