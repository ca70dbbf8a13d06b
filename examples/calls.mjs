// Prints examples/calls.ndjson for one of your trunks, moved in time so that the last call ended
// two minutes ago (today's trunk stats and the default analytics range then include them):
//   node examples/calls.mjs conn_… | curl … -H 'Content-Type: application/x-ndjson' --data-binary @-
import { readFileSync } from 'node:fs';

const trunkId = process.argv[2];
if (!/^conn_[A-Za-z0-9]{1,64}$/.test(trunkId ?? '')) {
  process.stderr.write('usage: node examples/calls.mjs <trunk_id>   (conn_…)\n');
  process.exit(2);
}
const records = readFileSync(new URL('calls.ndjson', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const lastEnd = Math.max(...records.map((r) => Date.parse(r.end_time ?? r.start_time)));
const shift = Date.now() - 2 * 60_000 - lastEnd;
const moved = (instant) => (instant ? new Date(Date.parse(instant) + shift).toISOString() : instant);
for (const record of records) {
  const line = { ...record, trunk_id: trunkId, start_time: moved(record.start_time), end_time: moved(record.end_time) };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
