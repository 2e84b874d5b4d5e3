import type { AuthenticatedOperation } from '../define.js';
import acceptLinkPlacement from './accept_link_placement.js';
import getLinkNetwork from './get_link_network.js';
import removeLinkPlacement from './remove_link_placement.js';
import setLinkNetworkMembership from './set_link_network_membership.js';

export const networkTools: readonly AuthenticatedOperation[] = [getLinkNetwork, setLinkNetworkMembership, removeLinkPlacement, acceptLinkPlacement];
