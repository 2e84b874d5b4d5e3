import type { SearchConsoleClient, SearchConsoleSettings } from '../../integrations/google/searchConsole.js';

/** How Search Console's declaration opens its client (`create`): the operator's OAuth client as its `read` gives it and an access token of the connected Google account. */
export type SearchConsoleConstructor = (settings: SearchConsoleSettings, accessToken: string) => SearchConsoleClient;
