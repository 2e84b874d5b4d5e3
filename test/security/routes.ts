import type { Express } from 'express';

/** A route as the dashboard declares it: `POST /w/:ws/keys/:keyId/revoke`. */
export interface DeclaredRoute {
  method: string;
  path: string;
}

// What express 5's router keeps of each `use` and each route; its own typings leave out the route's methods.
interface Layer {
  route?: { path: string | string[]; stack: Array<{ method?: string }> };
  handle: { stack?: Layer[] };
}

function routesIn(stack: readonly Layer[]): DeclaredRoute[] {
  return stack.flatMap((layer) => {
    if (layer.route === undefined) return layer.handle.stack === undefined ? [] : routesIn(layer.handle.stack);
    const methods = new Set(layer.route.stack.flatMap((handler) => (handler.method === undefined ? [] : [handler.method.toUpperCase()])));
    return [layer.route.path].flat().flatMap((path) => [...methods].map((method) => ({ method, path })));
  });
}

/**
 * Every route of the dashboard's router, read from the running app: the router that serves the sign-in form. A route
 * added to any of its pages later is in the list without anyone editing a test.
 */
export function dashboardRoutes(app: Express): DeclaredRoute[] {
  const routers = (app.router.stack as unknown as Layer[]).flatMap((layer) => (layer.route === undefined && layer.handle.stack !== undefined ? [layer.handle.stack] : []));
  const dashboard = routers.find((stack) => routesIn(stack).some((route) => route.path === '/signin'));
  if (dashboard === undefined) throw new Error('no router of the app serves /signin');
  return routesIn(dashboard);
}

/** The methods a browser's form or a cross-site request can use to change something. */
export function changesState(route: DeclaredRoute): boolean {
  return route.method !== 'GET' && route.method !== 'HEAD';
}

/**
 * The addresses a route answers at, each parameter filled with each of its `values` (several for `:operationId`: the
 * one route every operation's form posts to); a parameter without values gets a made-up id.
 */
export function concretePaths(route: DeclaredRoute, values: Record<string, string | readonly string[]>): string[] {
  let paths = [route.path];
  for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
    const choices = [values[name!] ?? `made_up_${name}`].flat();
    paths = paths.flatMap((path) => choices.map((choice) => path.replace(`:${name}`, encodeURIComponent(choice))));
  }
  return paths;
}
