import { modelOf } from './create-trunk.handler';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import { ProviderCredentials } from '../../infrastructure/providers/provider-validator.port';
import { SECRET_BOX, SecretBox } from '../../infrastructure/secrets/secret-box';
import { READ_YOUR_WRITES, ReadYourWrites } from '../../eventsourcing/read-your-writes.port';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { ReservationRequest, Reservations } from './reservation.service';
import { checkWiring, LiveTrunk, TrunkChanges, trunkDecider, trunkStream } from '../domain/trunk.decider';
import { TrunkUpdatedDto } from './dto/trunk-responses.dto';
import { UpdateTrunkRequestDto } from './dto/update-trunk.request.dto';
import { sealWiring, TrunkSupport } from './trunk-support';

export class UpdateTrunk {
  constructor(
    readonly trunkId: string,
    readonly accountId: string,
    readonly input: UpdateTrunkRequestDto,
    readonly metadata: EventMetadata,
  ) {}
}

@CommandHandler(UpdateTrunk)
export class UpdateTrunkHandler implements ICommandHandler<UpdateTrunk, TrunkUpdatedDto> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly reservations: Reservations,
    private readonly support: TrunkSupport,
    @Inject(READ_YOUR_WRITES) private readonly readModels: ReadYourWrites,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ trunkId, accountId, input, metadata }: UpdateTrunk): Promise<TrunkUpdatedDto> {
    const trunk = await this.liveTrunk(trunkId, accountId);
    checkWiring(trunk.provider, await sealWiring(null, trunkId, input), false);
    const credentials = await this.credentialsToCheck(trunk, input);
    if (credentials) await this.support.checkProvider(credentials);
    const at = this.clock.now();
    const newName = input.name?.trim();
    const reserved = await this.reserveNewName(trunk, newName, at, metadata);
    try {
      const changes: TrunkChanges = {
        ...(newName !== undefined ? { name: newName } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.system_prompt !== undefined ? { system_prompt: input.system_prompt } : {}),
        ...(input.vad !== undefined ? { vad: input.vad && { ...input.vad } } : {}),
        ...(input.provider_settings !== undefined
          ? { provider_settings: input.provider_settings && { ...input.provider_settings } }
          : {}),
        ...(input.allowed_addresses !== undefined ? { allowed_addresses: input.allowed_addresses } : {}),
      };
      const wiring = await sealWiring(this.secrets, trunkId, input);
      if (Object.keys(wiring).length > 0) changes.wiring = wiring;
      const outcome = await this.runner.run(
        trunkStream(trunkId),
        trunkDecider,
        { type: 'UpdateTrunk', data: { accountId, changes, at } },
        metadata,
      );
      const previousName = outcome.events.find((e) => e.type === 'TrunkUpdated')?.data;
      if (previousName && 'previous_name' in previousName && previousName.previous_name !== undefined) {
        const old = this.support.nameReservation(accountId, previousName.previous_name, trunkId, at, metadata);
        if (old.stream !== reserved?.stream) await this.reservations.release(old);
      }
      await this.readModels.waitFor(outcome.position, outcome.events);
      const state = outcome.state as LiveTrunk;
      return { id: trunkId, name: state.name, status: state.status, updated_at: state.updatedAt };
    } catch (error) {
      if (reserved) await this.reservations.release(reserved).catch(() => undefined);
      throw error;
    }
  }

  private async liveTrunk(trunkId: string, accountId: string): Promise<LiveTrunk> {
    const { state } = await this.runner.load(trunkStream(trunkId), trunkDecider);
    if (state.status === 'none' || state.status === 'deleted' || state.accountId !== accountId)
      throw new DomainError('not_found', `Trunk ${trunkId} not found`);
    return state;
  }

  /** A rename holds the new name first; a change of case only keeps the same reservation. */
  private async reserveNewName(
    trunk: LiveTrunk,
    newName: string | undefined,
    at: Date,
    metadata: EventMetadata,
  ): Promise<ReservationRequest | null> {
    if (newName === undefined) return null;
    const wanted = this.support.nameReservation(trunk.accountId, newName, trunk.trunkId, at, metadata);
    if (wanted.stream === this.support.nameReservation(trunk.accountId, trunk.name, trunk.trunkId, at, metadata).stream)
      return null;
    await this.reservations.reserve(wanted, this.support.isStale);
    return wanted;
  }

  /** ElevenLabs checks key and agent together: a change of either is checked with the other. */
  private async credentialsToCheck(
    trunk: LiveTrunk,
    input: UpdateTrunkRequestDto,
  ): Promise<ProviderCredentials | null> {
    if (trunk.provider === 'openai' && input.openai_api_key !== undefined)
      return {
        provider: 'openai',
        apiKey: input.openai_api_key,
        ...modelOf(input.provider_settings !== undefined ? input.provider_settings : trunk.settings.provider_settings),
      };
    if (trunk.provider === 'custom' && input.custom_endpoint !== undefined)
      return { provider: 'custom', endpoint: input.custom_endpoint };
    if (
      trunk.provider !== 'elevenlabs' ||
      (input.elevenlabs_api_key === undefined && input.elevenlabs_agent_id === undefined)
    )
      return null;
    const apiKey =
      input.elevenlabs_api_key ??
      (await this.secrets.decrypt(trunk.trunkId, 'elevenlabs_api_key', trunk.wiring.elevenlabs_api_key!));
    return { provider: 'elevenlabs', apiKey, agentId: input.elevenlabs_agent_id ?? trunk.wiring.elevenlabs_agent_id! };
  }
}
