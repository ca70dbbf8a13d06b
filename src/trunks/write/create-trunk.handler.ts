import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata, VersionConflictError } from '../../infrastructure/event-store/event-store.port';
import { ProviderCredentials } from '../../infrastructure/providers/provider-validator.port';
import { SECRET_BOX, SecretBox } from '../../infrastructure/secrets/secret-box';
import { WRITE_SETTINGS, WriteSettings } from '../../platform/config/write.settings';
import { READ_YOUR_WRITES, ReadYourWrites } from '../../eventsourcing/read-your-writes.port';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { newId } from '../../shared/ids';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { Reservations } from './reservation.service';
import { checkWiring, trunkDecider, trunkStream } from '../domain/trunk.decider';
import { CreateTrunkRequestDto } from './dto/create-trunk.request.dto';
import { TrunkCreatedDto } from './dto/trunk-responses.dto';
import { sealWiring, TrunkSupport } from './trunk-support';

export class CreateTrunk {
  constructor(
    readonly accountId: string,
    readonly input: CreateTrunkRequestDto,
    readonly metadata: EventMetadata,
  ) {}
}

/**
 * Reserve the sip_username and the name (atomically, in the event store), encrypt the secrets
 * under a fresh data key, append TrunkCreated. Any failure after a reservation releases it.
 */
@CommandHandler(CreateTrunk)
export class CreateTrunkHandler implements ICommandHandler<CreateTrunk, TrunkCreatedDto> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly reservations: Reservations,
    private readonly support: TrunkSupport,
    @Inject(READ_YOUR_WRITES) private readonly readModels: ReadYourWrites,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(WRITE_SETTINGS) private readonly settings: WriteSettings,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, metadata }: CreateTrunk): Promise<TrunkCreatedDto> {
    const name = input.name.trim();
    const trunkId = newId('conn');
    // The decider checks this again; checking first spares reservations a request bound to fail.
    checkWiring(input.ai_provider, await sealWiring(null, trunkId, input), true);
    const credentials = credentialsOf(input);
    if (credentials) await this.support.checkProvider(credentials);
    const at = this.clock.now();
    const username = this.support.usernameReservation(input.sip_username, trunkId, at, metadata);
    const trunkName = this.support.nameReservation(accountId, name, trunkId, at, metadata);
    await this.reservations.reserve(username, this.support.isStale);
    const held = [username];
    try {
      await this.reservations.reserve(trunkName, this.support.isStale);
      held.push(trunkName);
      await this.secrets.createDataKey(trunkId);
      const outcome = await this.runner.run(
        trunkStream(trunkId),
        trunkDecider,
        {
          type: 'CreateTrunk',
          data: {
            trunkId,
            accountId,
            name,
            provider: input.ai_provider,
            sipUsername: input.sip_username,
            at,
            sipPassword: await this.secrets.encrypt(trunkId, 'sip_password', input.sip_password),
            wiring: await sealWiring(this.secrets, trunkId, input),
            settings: {
              system_prompt: input.system_prompt,
              vad: input.vad ? { ...input.vad } : undefined,
              provider_settings: input.provider_settings ? { ...input.provider_settings } : undefined,
              allowed_addresses: input.allowed_addresses,
            },
          },
        },
        metadata,
        { expected: 'no_stream' },
      );
      await this.readModels.waitFor(outcome.position, outcome.events);
      return {
        id: trunkId,
        name,
        status: 'active',
        ai_provider: input.ai_provider,
        sip_username: input.sip_username,
        sip_endpoint: `${input.sip_username}@${this.settings.sipDomain}`,
        created_at: at.toISOString(),
      };
    } catch (error) {
      // Undo only when the trunk was certainly not created (a decision, not an outage whose
      // append may have committed); an abandoned reservation is taken over later anyway.
      if (error instanceof DomainError || error instanceof VersionConflictError) {
        await Promise.allSettled([...held.map((r) => this.reservations.release(r)), this.secrets.destroy(trunkId)]);
      }
      throw error;
    }
  }
}

/** The credentials to validate; absent ones are left to the decider's "required" rule. */
function credentialsOf(input: CreateTrunkRequestDto): ProviderCredentials | null {
  switch (input.ai_provider) {
    case 'openai':
      return input.openai_api_key !== undefined
        ? { provider: 'openai', apiKey: input.openai_api_key, ...modelOf(input.provider_settings) }
        : null;
    case 'elevenlabs':
      return input.elevenlabs_api_key !== undefined && input.elevenlabs_agent_id !== undefined
        ? { provider: 'elevenlabs', apiKey: input.elevenlabs_api_key, agentId: input.elevenlabs_agent_id }
        : null;
    case 'custom':
      return input.custom_endpoint !== undefined ? { provider: 'custom', endpoint: input.custom_endpoint } : null;
  }
}

/** The Realtime model the media gateway will ask for: the one the key is checked against. */
export function modelOf(settings: { model?: string } | null | undefined): { model?: string } {
  return typeof settings?.model === 'string' && settings.model ? { model: settings.model } : {};
}
