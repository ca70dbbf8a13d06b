import { existsSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { CASE, eventStoreContract } from './event-store.contract';

const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-pglite-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

eventStoreContract('pglite', () => createEventStore({ dataDir }), {
  skip: {
    [CASE.lateCommit]:
      'PGlite is one connection whose transactions never interleave: commit order is position order, and no second connection can hold a transaction open',
    [CASE.wakeOtherInstance]: 'PGlite lives inside one process, and one data directory is opened by one instance at a time',
  },
});

describe('createEventStore without a URL', () => {
  it('keeps the embedded store in <dataDir>/eventstore', () => {
    expect(existsSync(join(dataDir, 'eventstore', 'PG_VERSION'))).toBe(true);
  });
});
