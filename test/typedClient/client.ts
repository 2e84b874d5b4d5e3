/**
 * A client written as a customer would write one: types generated from the published openapi.json by
 * openapi-typescript (into ./generated, by the test), calls made with openapi-fetch. It is compiled on its own
 * (tsconfig.json here), after generation, so that the repository's own type check does not depend on a generated file.
 */
import createClient from 'openapi-fetch';
import type { paths } from './generated/sightline.js';

export async function threeCalls(baseUrl: string, key: string) {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });

  const brand = await client.GET('/api/v1/brand');
  if (brand.data === undefined) throw new Error(`get_brand failed: ${JSON.stringify(brand.error)}`);
  // Typed all the way down: a typo in a field name here does not compile.
  const brandName: string = brand.data.data.identity.name;

  const added = await client.POST('/api/v1/queries', { body: { text: 'best crm for dentists' } });
  if (added.data === undefined) throw new Error(`add_query failed: ${JSON.stringify(added.error)}`);

  const listed = await client.GET('/api/v1/queries');
  if (listed.data === undefined) throw new Error(`list_queries failed: ${JSON.stringify(listed.error)}`);

  const refused = await client.POST('/api/v1/queries', { body: { text: '' } });
  const refusal: string | undefined = refused.error?.error;

  return { brandName, added: added.data.data, listed: listed.data.data, refusal, refusedStatus: refused.response.status };
}
