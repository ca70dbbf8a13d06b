import FindMyWay from 'find-my-way';

/**
 * Every route the app registered, so that a request that matched none can be told apart:
 * the path exists under another method (405 with Allow) or not at all (404). Fastify itself
 * answers 404 for both.
 */
export class RouteTable {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true });
  private readonly methods = new Set<string>();

  add(method: string | string[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      if (m === 'HEAD' && this.router.hasRoute('HEAD', url)) continue;
      this.router.on(m as FindMyWay.HTTPMethod, url, () => undefined);
      this.methods.add(m);
    }
  }

  /** The methods under which `path` exists, empty when it does not. */
  allowedMethods(path: string): string[] {
    const pathOnly = path.split('?')[0];
    return [...this.methods].filter((m) => this.router.find(m as FindMyWay.HTTPMethod, pathOnly) !== null).sort();
  }
}
