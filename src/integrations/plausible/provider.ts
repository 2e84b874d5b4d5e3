import { declareProvider } from '../kit/declaration.js';

/** A web-analytics provider each workspace connects with its own account and key: nothing for the operator to set. */
export const PLAUSIBLE = declareProvider({
  id: 'plausible',
  family: 'web analytics',
  label: 'Plausible',
  turnedOnBy: [],
  settings: [],
  read(): object {
    return {};
  },
});
