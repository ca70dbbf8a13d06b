import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createRootLogger, lazyRequestLogger } from '../../../src/platform/logging/logging';

/** `countChildren` shadows root.child, which pino children inherit: only for tests that make none of their own. */
function capture(
  level: string,
  countChildren = true,
): { root: Logger; lines: () => Record<string, unknown>[]; children: () => number } {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const root = createRootLogger(level, stream as unknown as import('pino').DestinationStream);
  let children = 0;
  if (!countChildren)
    return {
      root,
      lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
      children: () => children,
    };
  const child = root.child.bind(root);
  root.child = ((...args: Parameters<Logger['child']>) => {
    children++;
    return child(...args);
  }) as Logger['child'];
  return {
    root,
    lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
    children: () => children,
  };
}

describe('the per-request logger', () => {
  it('makes no pino child while nothing is written at an enabled level', () => {
    const { root, lines, children } = capture('warn');
    const log = lazyRequestLogger(root, { request_id: 'req_1' }, {}) as Logger;
    log.info({ a: 1 }, 'not written');
    log.debug('not written either');
    expect(log.isLevelEnabled('info')).toBe(false);
    expect(log.level).toBe('warn');
    expect({ children: children(), lines: lines() }).toEqual({ children: 0, lines: [] });
  });

  it('writes enabled lines through one child, each with the request id, secrets redacted', () => {
    const { root, lines, children } = capture('info');
    const log = lazyRequestLogger(root, { request_id: 'req_2' }, {});
    log.info({ status: 200 }, 'request');
    log.warn({ headers: { authorization: 'Bearer sk_live_secret' } }, 'odd');
    log.error(new Error('boom'));
    expect(children()).toBe(1);
    expect(lines()).toEqual([
      expect.objectContaining({ request_id: 'req_2', status: 200, msg: 'request', level: 30 }),
      expect.objectContaining({ request_id: 'req_2', headers: { authorization: '[redacted]' }, msg: 'odd', level: 40 }),
      expect.objectContaining({ request_id: 'req_2', level: 50, err: expect.objectContaining({ message: 'boom' }) }),
    ]);
  });

  it('follows a level change, and its own children keep the request id', () => {
    const { root, lines } = capture('warn', false);
    const log = lazyRequestLogger(root, { request_id: 'req_3' }, {});
    log.level = 'debug';
    log.debug('now written');
    log.child({ part: 'x' }).info('child line');
    expect(lines()).toEqual([
      expect.objectContaining({ request_id: 'req_3', msg: 'now written' }),
      expect.objectContaining({ request_id: 'req_3', part: 'x', msg: 'child line' }),
    ]);
  });
});
