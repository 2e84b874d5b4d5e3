import type { SafeFetcher } from '../../outbound/safeFetch.js';
import type { ContactFinder } from './finder.js';

/** How a contact finder's declaration opens it (`create`): its settings as its `read` gives them and the outbound guard its requests go through. */
export type ContactFinderConstructor<Settings> = (settings: Settings, outbound: Pick<SafeFetcher, 'request'>) => ContactFinder;
