import fc from 'fast-check';
import { policyFor } from '../../../src/access/route-policy';
import type { TestApp } from '../../support/test-app';
import type { FuzzWorld, Owner } from './fuzz-world';
import { collectionOf, Operation } from './openapi-operations';
import { planArbitrary } from './request-plan';
import { repaired } from './repair';

/**
 * Creates a resource in every collection the description lets a client create (generated valid
 * bodies, repaired from the server's 400s), then walks the member operations once so that
 * sub-resources (a webhook endpoint's test delivery) exist too. Used to get another account's ids
 * for every route, including routes added after this was written.
 */
export async function populate(
  app: TestApp,
  world: FuzzWorld,
  operations: Operation[],
  owner: Owner,
  seed = 1,
): Promise<void> {
  const key = owner === 'own' ? world.keys.own.full : world.keys.other.full;
  const accountArea = (op: Operation) => {
    const policy = policyFor(op.path);
    return policy.kind === 'scoped' && policy.area === 'account';
  };
  for (const op of operations.filter((o) => o.method === 'POST' && o.pathParams.length === 0 && accountArea(o))) {
    for (let attempt = 0; attempt < 12 && !world.pick(op.path, owner, 0); attempt++) {
      let [plan] = fc.sample(
        planArbitrary(op, world).filter((p) => p.kind === 'valid'),
        { seed: seed + attempt, numRuns: 1 },
      );
      plan = { ...plan, headers: { ...plan.headers, authorization: `Bearer ${key}` }, owner };
      for (let repair = 0; repair < 6 && plan; repair++) {
        const response = await app.anonymous.call(plan.method, plan.url, {
          rawBody: plan.body,
          headers: plan.headers,
          key: null,
        });
        world.learn(op.path, owner, op.method, response.status, response.body);
        if (response.status < 300) break;
        plan = repaired(op, plan, response, world, seed + repair)!;
      }
    }
  }
  const members = operations.filter(
    (o) => o.pathParams.length === 1 && o.method !== 'DELETE' && o.method !== 'PATCH' && accountArea(o),
  );
  for (const method of ['POST', 'GET']) {
    for (const op of members.filter((o) => o.method === method)) {
      const id = world.pick(collectionOf(op.path, op.pathParams[0].name), owner, 0);
      if (!id) continue;
      const response = await app.anonymous.call(
        op.method,
        op.path.replace(`{${op.pathParams[0].name}}`, encodeURIComponent(id)),
        { key },
      );
      const last = op.path.split('/').pop()!;
      if (!last.startsWith('{')) world.learn(`sub:${last}`, owner, 'GET', response.status, response.body);
    }
  }
}
