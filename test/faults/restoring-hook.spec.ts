import type { FastifyReply, FastifyRequest } from 'fastify';
import { restoringOnSend } from '../../src/platform/http/restoring.hook';

/**
 * Regression (found by the fault suite, "kill during replay"): a trunk whose key had been replayed
 * but not the trunk itself answered 404 to its owner. While the read models are restoring, a
 * matched route's 404 is 503 with Retry-After; otherwise answers pass unchanged.
 */
describe('restoring onSend hook', () => {
  const NOT_FOUND = JSON.stringify({ error: { code: 'not_found', message: 'Trunk x not found', status: 404 } });

  function reply(statusCode: number) {
    const headers: Record<string, string> = {};
    const fake = {
      statusCode,
      status(code: number) {
        fake.statusCode = code;
        return fake;
      },
      header(name: string, value: string) {
        headers[name] = value;
        return fake;
      },
    };
    return { fake, headers };
  }
  const request = (routeUrl: string | undefined, restoreMark: unknown = 'mark-at-start') =>
    ({ id: 'req-1', routeOptions: { url: routeUrl }, restoreMark }) as unknown as FastifyRequest;
  /** `restoring`: what the read models answer for the request's mark (since it started, or now). */
  const hook = (restoring: boolean | Error, seen: unknown[] = []) =>
    restoringOnSend({
      restoreMark: () => 'mark-now',
      restoringSince: async (mark: unknown) => {
        seen.push(mark);
        if (restoring instanceof Error) throw restoring;
        return restoring;
      },
    });

  it('judges a 404 by the restore mark the request took when it started, or by now when it has none', async () => {
    const seen: unknown[] = [];
    await hook(true, seen)(request('/v1/trunks/:trunk_id'), reply(404).fake as unknown as FastifyReply, NOT_FOUND);
    await hook(true, seen)(
      request('/v1/trunks/:trunk_id', null),
      reply(404).fake as unknown as FastifyReply,
      NOT_FOUND,
    );
    expect(seen).toEqual(['mark-at-start', 'mark-now']);
  });

  it("turns a matched route's 404 into 503 service_unavailable with Retry-After while restoring", async () => {
    const { fake, headers } = reply(404);
    const payload = await hook(true)(request('/v1/trunks/:trunk_id'), fake as unknown as FastifyReply, NOT_FOUND);
    expect(fake.statusCode).toBe(503);
    expect(headers['Retry-After']).toBe('1');
    expect(JSON.parse(String(payload))).toMatchObject({
      error: { code: 'service_unavailable', status: 503, request_id: 'req-1' },
    });
  });

  it('keeps 404 when the read models are complete, when the check itself fails, or for an unknown route', async () => {
    for (const [state, route] of [
      [false, '/v1/trunks/:trunk_id'],
      [new Error('redis away'), '/v1/trunks/:trunk_id'],
      [true, undefined],
    ] as const) {
      const { fake } = reply(404);
      expect(await hook(state)(request(route), fake as unknown as FastifyReply, NOT_FOUND)).toBe(NOT_FOUND);
      expect(fake.statusCode).toBe(404);
    }
  });

  it('passes every other answer through untouched', async () => {
    for (const status of [200, 400, 409, 503]) {
      const { fake } = reply(status);
      expect(await hook(true)(request('/v1/trunks/:trunk_id'), fake as unknown as FastifyReply, '{"ok":1}')).toBe(
        '{"ok":1}',
      );
      expect(fake.statusCode).toBe(status);
    }
  });
});
