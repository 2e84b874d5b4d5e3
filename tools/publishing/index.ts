import type { AuthenticatedOperation } from '../define.js';
import activateDestination from './activate_destination.js';
import createDestination from './create_destination.js';
import getArticles from './get_articles.js';
import listDeliveries from './list_deliveries.js';
import listDestinations from './list_destinations.js';
import removeDestination from './remove_destination.js';
import sendTestEvent from './send_test_event.js';

export const publishingTools: readonly AuthenticatedOperation[] = [
  listDestinations,
  createDestination,
  activateDestination,
  sendTestEvent,
  removeDestination,
  listDeliveries,
  getArticles,
];
