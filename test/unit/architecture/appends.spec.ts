import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * docs/architecture.md: every event is appended by a command handler, through the one
 * decide-and-append step (CommandRunner). So outside the event-store adapters (which implement
 * append) and the command runner, no file of src/ calls `.append(`. A file that needs `.append(`
 * of something else (a FormData, say) is named here with why.
 */
const SRC = join(__dirname, '..', '..', '..', 'src');
const APPENDERS = ['eventsourcing/command-runner.ts'];
const ADAPTERS = 'infrastructure/';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('appends (docs/architecture.md)', () => {
  it('go through the command runner only: no other file of src/ outside the adapters calls append', () => {
    const files = sourceFiles(SRC).map((file) => relative(SRC, file));
    const offences = files
      .filter((file) => !file.startsWith(ADAPTERS) && !APPENDERS.includes(file))
      .flatMap((file) =>
        readFileSync(join(SRC, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (/\.append\s*\(/.test(line) ? [`src/${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offences).toEqual([]);
    // The runner itself is where appends happen, so the scan looks at the right thing.
    expect(readFileSync(join(SRC, APPENDERS[0]), 'utf8')).toMatch(/\.append\(/);
  });
});
