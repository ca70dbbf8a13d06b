import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import { SECRET_BOX, SecretBox } from '../../infrastructure/secrets/secret-box';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { agentAccessDecider, agentAccessStream } from '../../domain/trunks/agent-access.decider';
import { reservationDecider, sipUsernameStream } from '../../domain/reservations/reservation.decider';
import { trunkDecider, trunkStream } from '../../domain/trunks/trunk.decider';
import { CommandRunner } from '../command-runner';
import { GatewayAgentDto } from './dto/trunk-responses.dto';

/** A gateway's lookup of what it needs to reach a trunk's agent, secrets in clear (scope gateway only). */
export class ReadAgentCredentials {
  constructor(
    readonly sipUsername: string,
    readonly metadata: EventMetadata,
  ) {}
}

const SIP_USERNAME = /^[A-Za-z0-9-]{1,64}$/;

/**
 * A command, not a query: the answer discloses secrets, so the read is decided and recorded
 * (`AgentCredentialsRead` in the trunk's access stream, which is in the account's audit log)
 * before anything is decrypted, and nothing is answered unless that event is stored. The trunk
 * is found the way the write side finds it (the sip_username's reservation stream, then the
 * trunk's own stream), never from a read model, which holds no secret, not even encrypted.
 * An event whose answer then fails (a vault fault) over-reports a read; none is under-reported.
 */
@CommandHandler(ReadAgentCredentials)
export class ReadAgentCredentialsHandler implements ICommandHandler<ReadAgentCredentials, GatewayAgentDto> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sipUsername, metadata }: ReadAgentCredentials): Promise<GatewayAgentDto> {
    const notFound = new DomainError('not_found', 'No trunk with this sip_username');
    if (!SIP_USERNAME.test(sipUsername)) throw notFound;
    const name = sipUsername.toLowerCase();
    const { state: reservation } = await this.runner.load(sipUsernameStream(name), reservationDecider(name));
    if (reservation.holder === null) throw notFound;
    const trunkId = reservation.holder;
    const known = await this.runner.load(trunkStream(trunkId), trunkDecider);
    // The username may still be reserved by a trunk that is being deleted: that is not found either.
    if (known.state.status === 'none' || known.state.status === 'deleted') throw notFound;
    const outcome = await this.runner.decideAndAppend(
      agentAccessStream(trunkId),
      agentAccessDecider,
      { type: 'ReadAgentCredentials', data: { at: this.clock.now() } },
      known,
      metadata,
      'any',
    );
    const trunk = known.state;
    const read = outcome.events[0].data;
    const open = async (field: 'openai_api_key' | 'elevenlabs_api_key'): Promise<string | null> => {
      const sealed = trunk.wiring[field];
      return sealed && read.disclosed.includes(field) ? this.secrets.decrypt(trunkId, field, sealed) : null;
    };
    return {
      trunk_id: trunkId,
      account_id: trunk.accountId,
      sip_username: trunk.sipUsername,
      status: trunk.status,
      ai_provider: trunk.provider,
      custom_endpoint: trunk.wiring.custom_endpoint ?? null,
      openai_api_key: await open('openai_api_key'),
      elevenlabs_api_key: await open('elevenlabs_api_key'),
      elevenlabs_agent_id: trunk.wiring.elevenlabs_agent_id ?? null,
      system_prompt: trunk.settings.system_prompt,
      vad: trunk.settings.vad,
      provider_settings: trunk.settings.provider_settings,
      read_at: read.read_at,
      audit_event_id: outcome.eventIds[0],
    };
  }
}
