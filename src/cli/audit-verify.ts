import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type ExportReport, verifyExport } from '../audit/verify/export-verifier';
import { cliArgs, runCli } from './cli-support';

/**
 * `npm run audit:verify -- FILE [--json]`: checks an export of GET /v1/audit-events/export
 * (NDJSON or CSV) with no access to the service: every event's hash, every link, every
 * checkpoint, the end record. Exit 0 verified, 1 tampered, 2 truncated, 3 not an export.
 */
const EXIT = { verified: 0, tampered: 1, truncated: 2, unreadable: 3 } as const;

async function main(): Promise<void> {
  const usage = 'usage: npm run audit:verify -- FILE [--json]   (an export of GET /v1/audit-events/export)\n';
  const { values, positionals } = cliArgs(
    { options: { json: { type: 'boolean' } }, allowPositionals: true },
    usage,
    EXIT.unreadable,
  );
  const json = values.json === true;
  const [file] = positionals;
  if (positionals.length !== 1 || !existsSync(file)) {
    process.stderr.write(usage);
    process.exit(EXIT.unreadable);
  }
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  const report = await verifyExport(lines);
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : describe(file, report));
  process.exitCode = EXIT[report.verdict];
}

function describe(file: string, r: ExportReport): string {
  const o = r.outcome;
  const lines = [`${file}: ${r.verdict.toUpperCase()}: ${r.message}`];
  if (r.header) lines.push(`account ${r.header.account_id}, ${r.format}, exported ${r.header.exported_at}`);
  if (o) {
    lines.push(`events checked: ${o.events}; checkpoints verified: ${o.checkpoints.verified}`);
    if (o.head) lines.push(`last event: ${o.head.position} ${o.head.stream_id}#${o.head.revision} ${o.head.hash}`);
    lines.push(`root of the stream heads: ${o.root} (${o.streams} streams)`);
    if (o.break)
      lines.push(
        `first break: ${o.break.reason} at ${o.break.position} (${o.break.stream_id}#${o.break.revision}, event ${o.break.event_id})`,
      );
  }
  return `${lines.join('\n')}\n`;
}

runCli('audit:verify', main);
