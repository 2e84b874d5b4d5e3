import { declareProvider } from '../kit/declaration.js';

/** A web-analytics provider each workspace connects with its own account and key: nothing for the operator to set. */
export const UMAMI = declareProvider({
  id: 'umami',
  family: 'web analytics',
  label: 'Umami',
  turnedOnBy: [],
  settings: [],
  read(): object {
    return {};
  },
});
