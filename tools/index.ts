import getBrand from './brand/get_brand.js';
import { buildRegistry } from './registry.js';

/** Every operation, grouped by domain; the group name is the MCP toolset and the OpenAPI tag. */
export const registry = buildRegistry({
  brand: [getBrand],
});
