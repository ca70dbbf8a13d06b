import { accountsProjection } from '../accounts/projections/accounts.projection';
import { apiKeysProjection } from '../api-keys/projections/api-keys.projection';
import { exportsProjection } from '../exports/projections/exports.projection';
import type { Projection } from '../eventsourcing/projection';
import { type SecretReader, trunksProjection } from '../trunks/projections/trunks.projection';

/*
 * No framework here: a rebuild's worker thread (src/cli/read-models-rebuild.worker.ts) builds the
 * same projections as the service, without loading NestJS.
 */

/** The read-model runner's name: its checkpoint key (`checkpoint:read-models`) in the store. */
export const READ_MODELS_RUNNER = 'read-models';

/** Every projection kept in the read-model store, in the order they apply each event. */
export function buildReadModelProjections(secrets: SecretReader, sipDomain: string): Projection[] {
  return [accountsProjection, apiKeysProjection, trunksProjection(secrets, sipDomain), exportsProjection];
}

/**
 * The event types the read-model runner applies: what its catch-up reads from the store and what
 * its projection-stats counter counts (appliedKey).
 */
export const READ_MODEL_EVENT_TYPES: readonly string[] = [
  // Built only to list their types: nothing is applied, so nothing is decrypted.
  ...new Set(
    buildReadModelProjections({ decrypt: () => Promise.reject(new Error('not applied')) }, '').flatMap(
      (projection) => projection.types ?? [],
    ),
  ),
];
