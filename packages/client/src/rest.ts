/** The REST client (openapi-fetch) typed by `openapi.gen.ts`, generated from the OpenAPI document. */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './openapi.gen.ts';
import type { Session } from './session.ts';

export type SandbankRestClient = Client<paths>;

export function createRestClient(session: Session): SandbankRestClient {
  return createClient<paths>({ baseUrl: session.baseUrl, fetch: session.fetch });
}
