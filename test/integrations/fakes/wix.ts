import { randomBytes, randomUUID } from 'node:crypto';
import { type BuilderCall, type BuilderReply, FakeBuilderServer, isObject, reply } from './siteBuilderServer.js';

export interface FakeWixInstance {
  instanceId: string;
  siteUrl: string | null;
  displayName: string;
  script: { parameters: Record<string, string>; disabled: boolean } | null;
}

const error = (status: number, message: string, code = 'ERROR') => reply(status, { message, details: { applicationError: { code, description: message, data: {} } } });

/**
 * Wix's app APIs as far as the installer uses them: client-credentials tokens for an app instance (the app's id and
 * secret, 401 otherwise; an unknown instance 404), the bare token in Authorization (401 otherwise), Get App Instance,
 * and the Embedded Script API, whose parameters must carry exactly the keys of the app's script (400 otherwise).
 */
export class FakeWix extends FakeBuilderServer {
  readonly appId = 'wix-app';
  readonly appSecret = 'wix-secret';
  /** The dynamic parameters of the app's Embedded Script extension, as the template in docs/guide/analytics.md (Site builders) declares them. */
  templateKeys = ['serviceUrl', 'siteId'];
  readonly instances = new Map<string, FakeWixInstance>();
  private readonly tokens = new Map<string, string>();

  static async start(): Promise<FakeWix> {
    const fake = new FakeWix();
    await fake.listen();
    return fake;
  }

  /** A site that installed the app. */
  addInstance(siteUrl: string | null, instanceId: string = randomUUID()): FakeWixInstance {
    const instance = { instanceId, siteUrl, displayName: 'Acme on Wix', script: null };
    this.instances.set(instanceId, instance);
    return instance;
  }

  protected answer(call: BuilderCall): BuilderReply {
    if (call.method === 'POST' && call.path === '/oauth2/token') return this.token(call.body);
    const instanceId = this.tokens.get(String(call.headers.authorization ?? ''));
    const instance = instanceId === undefined ? undefined : this.instances.get(instanceId);
    if (instance === undefined) return error(401, 'Unauthorized: missing or invalid access token', 'UNAUTHORIZED');
    if (call.method === 'GET' && call.path === '/apps/v1/instance') {
      return reply(200, {
        instance: { instanceId: instance.instanceId, appName: 'Sightline', appVersion: '1.0.0', isFree: true },
        site: { siteDisplayName: instance.displayName, locale: 'en', ...(instance.siteUrl === null ? {} : { url: instance.siteUrl }) },
      });
    }
    if (call.method === 'GET' && call.path === '/apps/v1/scripts') {
      return instance.script === null ? error(404, 'Embedded script not found', 'NOT_FOUND') : reply(200, { properties: instance.script });
    }
    if (call.method === 'POST' && call.path === '/apps/v1/scripts') return this.embed(instance, call.body);
    return error(404, `${call.method} ${call.path} is not a route`);
  }

  private token(body: unknown): BuilderReply {
    if (!isObject(body) || body.grant_type !== 'client_credentials') return error(400, 'grant_type must be client_credentials');
    if (body.client_id !== this.appId || body.client_secret !== this.appSecret) return error(401, 'Invalid app credentials', 'UNAUTHORIZED');
    if (typeof body.instance_id !== 'string' || !this.instances.has(body.instance_id)) return error(404, 'App instance not found', 'INSTANCE_NOT_FOUND');
    const token = `OauthNG.JWS.${randomBytes(12).toString('hex')}`;
    this.tokens.set(token, body.instance_id);
    return reply(200, { access_token: token, token_type: 'Bearer', expires_in: 14400 });
  }

  private embed(instance: FakeWixInstance, body: unknown): BuilderReply {
    const properties = isObject(body) && isObject(body.properties) ? body.properties : undefined;
    const parameters = properties !== undefined && isObject(properties.parameters) ? properties.parameters : undefined;
    const keys = Object.keys(parameters ?? {}).sort();
    if (parameters === undefined || keys.join() !== [...this.templateKeys].sort().join() || Object.values(parameters).some((value) => typeof value !== 'string')) {
      return error(400, 'Parameters map sent to embedded script is not the same as discovered in the script code', 'INVALID_ARGUMENT');
    }
    instance.script = { parameters: parameters as Record<string, string>, disabled: false };
    return reply(200, {});
  }
}
