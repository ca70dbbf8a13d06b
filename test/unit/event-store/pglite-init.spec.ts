import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initInChild } from '../../../src/infrastructure/event-store/postgres/pglite.open';

/** A new PGlite directory is created by initdb in a child process, which a deadline bounds. */
describe('creating a PGlite directory in a child process', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'trunkline-pglite-init-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('says the deadline passed when the child outlives it, and leaves no directory behind as ready', async () => {
    const dir = join(root, 'events');
    // 1 ms: the child cannot even load PGlite in that time, so it is killed by the deadline.
    await expect(initInChild(dir, 1)).rejects.toThrow(
      `PGlite could not create ${dir}: initdb did not finish within 0.001 s`,
    );
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(false);
  });
});
