import { writeFileSync } from 'node:fs';
import { buildDocumentOffline } from './offline-document';

/** `node -r @swc-node/register scripts/openapi/write-document.ts <file>`: the document, as served. */
async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error('usage: write-document.ts <output.json>');
  writeFileSync(out, `${JSON.stringify(await buildDocumentOffline(), null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
