import { Redis } from 'ioredis';
import { monitorRedis, parseMonitorLine } from '../../support/redis-monitor';
import { TEST_REDIS_URL } from '../../support/test-app';
import { SETTLE_DEADLINE_MS } from '../../support/deadlines';
import { until } from '../../support/free-port';

describe('test support: Redis MONITOR on a socket of its own', () => {
  it('reads the source and the quoted, escaped arguments of a MONITOR line', () => {
    expect(parseMonitorLine('+1795870120.990655 [0 127.0.0.1:48448] "zcard" "t:rm:key"')).toEqual({
      source: '127.0.0.1:48448',
      args: ['zcard', 't:rm:key'],
    });
    expect(parseMonitorLine('+1.0 [0 lua] "set" "a \\"b\\"\\\\c" "\\xc3\\xa9\\n"')).toEqual({
      source: 'lua',
      args: ['set', 'a "b"\\c', 'é\n'],
    });
    expect(parseMonitorLine('+OK')).toBeNull();
  });

  it('reports the commands another connection sends, from the moment it resolves', async () => {
    const key = `monitor-spec:${process.pid}:${Date.now()}`;
    const seen: string[][] = [];
    const monitor = await monitorRedis(TEST_REDIS_URL, ({ args }) => {
      if (args[1] === key) seen.push(args);
    });
    const client = new Redis(TEST_REDIS_URL);
    try {
      await client.set(key, 'value with "quotes" and é');
      await client.del(key);
      await until('both commands seen', async () => seen.length >= 2, SETTLE_DEADLINE_MS).catch(() => undefined);
      expect(seen).toEqual([
        ['set', key, 'value with "quotes" and é'],
        ['del', key],
      ]);
    } finally {
      monitor.close();
      client.disconnect();
    }
  });

  it('starts cleanly while the server is busy with another connection (where ioredis monitor() errs)', async () => {
    const busy = new Redis(TEST_REDIS_URL);
    const key = `monitor-spec:busy:${process.pid}`;
    let stop = false;
    const traffic = (async () => {
      while (!stop) {
        const pipeline = busy.pipeline();
        for (let i = 0; i < 50; i++) pipeline.get(key);
        await pipeline.exec();
      }
    })();
    try {
      for (let round = 0; round < 20; round++) {
        let reported = 0;
        const monitor = await monitorRedis(TEST_REDIS_URL, ({ args }) => {
          if (args[1] === key) reported++;
        });
        await until('a command seen', async () => reported > 0, SETTLE_DEADLINE_MS).catch(() => undefined);
        monitor.close();
        expect(reported).toBeGreaterThan(0);
      }
    } finally {
      stop = true;
      await traffic;
      busy.disconnect();
    }
  });
});
