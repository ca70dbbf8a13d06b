import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port';
import {
  PROVIDER_VALIDATOR,
  ProviderCredentials,
  ProviderValidator,
} from '../../infrastructure/providers/provider-validator.port';
import { SecretBox } from '../../infrastructure/secrets/secret-box';
import { DomainError } from '../../shared/domain-error';
import { EncryptedSecret } from '../../shared/encrypted-secret';
import { ProviderWiring } from '../domain/trunk.types';
import { ReservationRequest, StaleHolderCheck } from './reservation.service';
import { sipUsernameStream, trunkNameStream } from '../domain/reservation.decider';
import { trunkStream } from '../domain/trunk.decider';

/** A reservation whose trunk never got created is abandoned after this long. */
const ABANDONED_AFTER_MS = 60_000;

/** What the trunk handlers share: provider checks, reservation requests, stale-holder checks. */
@Injectable()
export class TrunkSupport {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PROVIDER_VALIDATOR) private readonly validator: ProviderValidator,
  ) {}

  /** 401 invalid_provider_credentials when the provider says no, 503 when it cannot be asked. */
  async checkProvider(credentials: ProviderCredentials): Promise<void> {
    const result = await this.validator.validate(credentials);
    if (result.ok) return;
    if (result.reason === 'unreachable') {
      throw new DomainError(
        'provider_unavailable',
        `Could not validate the ${credentials.provider} credentials: ${result.message}`,
        { retryAfterSeconds: 5 },
      );
    }
    throw new DomainError('invalid_provider_credentials', result.message, { param: result.field });
  }

  usernameReservation(sipUsername: string, trunkId: string, at: Date, metadata: EventMetadata): ReservationRequest {
    return {
      stream: sipUsernameStream(sipUsername),
      label: `sip_username "${sipUsername}"`,
      ownerId: trunkId,
      at,
      metadata,
    };
  }

  nameReservation(
    accountId: string,
    name: string,
    trunkId: string,
    at: Date,
    metadata: EventMetadata,
  ): ReservationRequest {
    return {
      stream: trunkNameStream(accountId, name),
      label: `A trunk named "${name.trim()}"`,
      ownerId: trunkId,
      at,
      metadata,
    };
  }

  /** The holder trunk was deleted, or was never created and its reservation is old. */
  readonly isStale: StaleHolderCheck = async (holderId, since) => {
    const history = await this.events.readStream(trunkStream(holderId));
    if (history.length === 0) return Date.now() - since.getTime() > ABANDONED_AFTER_MS;
    return history[history.length - 1].type === 'TrunkDeleted';
  };
}

/** Provider fields a request may carry. */
export interface ProviderFields {
  openai_api_key?: string;
  elevenlabs_api_key?: string;
  elevenlabs_agent_id?: string;
  custom_endpoint?: string;
}

const PRESENT: EncryptedSecret = { v: 1, alg: 'A256GCM', iv: '', ct: '', tag: '' };

/**
 * The provider fields of a request as events carry them: keys encrypted under the trunk's data
 * key (or, with `secrets` null, only marked present, for the early "does not apply" check).
 */
export async function sealWiring(
  secrets: SecretBox | null,
  trunkId: string,
  input: ProviderFields,
): Promise<ProviderWiring> {
  const seal = async (field: string, value: string) => (secrets ? secrets.encrypt(trunkId, field, value) : PRESENT);
  const wiring: ProviderWiring = {};
  if (input.openai_api_key !== undefined) wiring.openai_api_key = await seal('openai_api_key', input.openai_api_key);
  if (input.elevenlabs_api_key !== undefined)
    wiring.elevenlabs_api_key = await seal('elevenlabs_api_key', input.elevenlabs_api_key);
  if (input.elevenlabs_agent_id !== undefined) wiring.elevenlabs_agent_id = input.elevenlabs_agent_id;
  if (input.custom_endpoint !== undefined) wiring.custom_endpoint = input.custom_endpoint;
  return wiring;
}
