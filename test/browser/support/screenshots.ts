import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the browser tests save their screenshots: docs/console (the pictures docs/console.md
 * shows) with UPDATE_SCREENSHOTS=1, otherwise a temporary folder, so a test run leaves the
 * working tree as it was.
 */
export function screenshotDir(): string {
  const dir =
    process.env.UPDATE_SCREENSHOTS === '1'
      ? join(__dirname, '..', '..', '..', 'docs', 'console')
      : join(tmpdir(), 'trunkline-console-screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}
