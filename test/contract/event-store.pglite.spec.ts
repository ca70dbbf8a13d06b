import { existsSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vm from 'node:vm';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { CASE, eventStoreContract } from './event-store.contract';

/**
 * PGlite's WASM glue calls import() on Node builtins, which jest's module sandbox only allows
 * with NODE_OPTIONS=--experimental-vm-modules (electric-sql/pglite#224). Without it every case
 * would fail with a cryptic error, so one case fails with the fix instead.
 */
const vmModulesEnabled = typeof (vm as { SourceTextModule?: unknown }).SourceTextModule === 'function';

if (vmModulesEnabled) {
  const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-pglite-'));
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  eventStoreContract('pglite', (settings) => createEventStore({ dataDir, ...settings }), {
    skip: {
      [CASE.lateCommit]:
        'PGlite is one connection whose transactions never interleave: commit order is position order, and no second connection can hold a transaction open',
      [CASE.wakeOtherInstance]:
        'PGlite lives inside one process, and one data directory is opened by one instance at a time',
      [CASE.chainOtherInstance]:
        'one data directory is opened by one PGlite instance at a time: there is no other instance to move the head',
    },
  });

  describe('createEventStore without a URL', () => {
    it('keeps the embedded store in <dataDir>/eventstore', () => {
      expect(existsSync(join(dataDir, 'eventstore', 'PG_VERSION'))).toBe(true);
    });
  });
} else {
  describe('EventStore contract (pglite)', () => {
    it('needs jest to run with NODE_OPTIONS=--experimental-vm-modules', () => {
      throw new Error(
        'PGlite cannot start inside jest without NODE_OPTIONS=--experimental-vm-modules (its WASM glue uses import(); electric-sql/pglite#224). Run: NODE_OPTIONS=--experimental-vm-modules npx jest',
      );
    });
  });
}
