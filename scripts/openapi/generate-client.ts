import { writeFileSync } from 'node:fs';
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from './client-schema';
import { buildDocumentOffline } from './offline-document';

/** `npm run client:generate`: clients/typescript/schema.d.ts from the document the server would serve. */
async function main(): Promise<void> {
  writeFileSync(CLIENT_SCHEMA_FILE, await clientSchemaSource(await buildDocumentOffline()));
  console.log(`wrote ${CLIENT_SCHEMA_FILE}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
