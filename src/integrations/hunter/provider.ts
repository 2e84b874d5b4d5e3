import { declareProvider, httpUrl, readValue, refuseWithout, setting, type Environment } from '../kit/declaration.js';
import type { ContactFinderConstructor } from '../../outreach/contacts/constructor.js';
import { HunterFinder, type HunterSettings } from './contactFinder.js';

const HUNTER_API = 'https://api.hunter.io/v2';

/** Configured by its key; HUNTER_BASE_URL points at a compatible server (https: it goes through the outbound guard). */
export const HUNTER = declareProvider({
  id: 'hunter',
  family: 'contact finder',
  label: 'Hunter',
  turnedOnBy: ['HUNTER_API_KEY'],
  settings: [
    {
      names: ['HUNTER_API_KEY', 'HUNTER_BASE_URL'],
      default: `—, \`${HUNTER_API}\``,
      meaning:
        "Contact finder with a Hunter-compatible API for `find_outreach_contact` (domain search, email finder, email verifier). Unset: only the free reading of the prospect's contact and about pages. `HUNTER_BASE_URL` must be https (it goes through the outbound guard) and needs the key",
      secrets: ['HUNTER_API_KEY'],
    },
  ],
  create: ((settings, outbound) => new HunterFinder(settings, outbound)) satisfies ContactFinderConstructor<HunterSettings>,
  read(env: Environment): HunterSettings | undefined {
    refuseWithout(env, 'HUNTER_BASE_URL', 'HUNTER_API_KEY');
    const apiKey = setting(env, 'HUNTER_API_KEY');
    if (apiKey === undefined) return undefined;
    const baseUrl = readValue(env, 'HUNTER_BASE_URL', httpUrl, HUNTER_API);
    if (!baseUrl.startsWith('https:')) throw new Error(`HUNTER_BASE_URL: must be an https URL, got "${baseUrl}"`);
    return { baseUrl, apiKey };
  },
});
