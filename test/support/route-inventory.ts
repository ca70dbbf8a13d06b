import { RouteTable } from '../../src/platform/http/route-table';
import type { TestApp } from './test-app';

export interface RouteEntry {
  method: string;
  /** OpenAPI form: `/v1/trunks/{id}`. */
  path: string;
}

/**
 * Every route the running app registered (its route table, the one 405 answers come from), in the
 * OpenAPI path form. HEAD mirrors GET and is left out.
 */
export function registeredRoutes(app: TestApp): RouteEntry[] {
  const table = app.running.app.get(RouteTable) as unknown as {
    router: { routes: { method: string; path: string }[] };
  };
  if (!Array.isArray(table.router?.routes))
    throw new Error('RouteTable no longer exposes find-my-way routes: update route-inventory.ts');
  return table.router.routes
    .filter((route) => route.method !== 'HEAD')
    .map((route) => ({ method: route.method, path: route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}') }));
}

export const routeKey = (route: RouteEntry) => `${route.method} ${route.path}`;
