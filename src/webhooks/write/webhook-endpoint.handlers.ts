import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import type { WebhookWrite } from './webhook-write';
import { SECRET_BOX, SecretBox } from '../../infrastructure/secrets/secret-box';
import { CLOCK, Clock } from '../../shared/clock';
import { newId } from '../../shared/ids';
import { generateWebhookSecret, SIGNING_SECRET_FIELD } from '../domain/webhook-signer';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { EndpointChanges, webhookEndpointDecider, webhookEndpointStream } from '../domain/webhook-endpoint.decider';
import { CreateWebhookEndpointRequestDto, UpdateWebhookEndpointRequestDto } from './dto/webhook-endpoint.request.dto';

export class CreateWebhookEndpoint {
  constructor(
    readonly accountId: string,
    readonly input: CreateWebhookEndpointRequestDto,
    readonly metadata: EventMetadata,
  ) {}
}
export class UpdateWebhookEndpoint {
  constructor(
    readonly endpointId: string,
    readonly accountId: string,
    readonly input: UpdateWebhookEndpointRequestDto,
    readonly metadata: EventMetadata,
  ) {}
}
export class RotateWebhookSecret {
  constructor(
    readonly endpointId: string,
    readonly accountId: string,
    readonly metadata: EventMetadata,
  ) {}
}
export class PingWebhookEndpoint {
  constructor(
    readonly endpointId: string,
    readonly accountId: string,
    readonly metadata: EventMetadata,
  ) {}
}
export class DeleteWebhookEndpoint {
  constructor(
    readonly endpointId: string,
    readonly accountId: string,
    readonly metadata: EventMetadata,
  ) {}
}

/** The secret is generated here, sealed under the endpoint's own data key, and returned once. */
@CommandHandler(CreateWebhookEndpoint)
export class CreateWebhookEndpointHandler implements ICommandHandler<
  CreateWebhookEndpoint,
  WebhookWrite & { endpointId: string; secret: string }
> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({
    accountId,
    input,
    metadata,
  }: CreateWebhookEndpoint): Promise<WebhookWrite & { endpointId: string; secret: string }> {
    const endpointId = newId('we');
    const secret = generateWebhookSecret();
    await this.secrets.createDataKey(endpointId);
    const sealed = await this.secrets.encrypt(endpointId, SIGNING_SECRET_FIELD, secret);
    const command = {
      type: 'CreateEndpoint' as const,
      data: {
        endpointId,
        accountId,
        url: input.url,
        description: input.description ?? null,
        eventTypes: input.event_types ?? null,
        enabled: input.enabled ?? true,
        secret: sealed,
        at: this.clock.now(),
      },
    };
    const outcome = await this.runner.run(
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      command,
      metadata,
      { expected: 'no_stream' },
    );
    return { position: outcome.position, endpointId, secret };
  }
}

@CommandHandler(UpdateWebhookEndpoint)
export class UpdateWebhookEndpointHandler implements ICommandHandler<UpdateWebhookEndpoint, WebhookWrite> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ endpointId, accountId, input, metadata }: UpdateWebhookEndpoint): Promise<WebhookWrite> {
    const changes: EndpointChanges = {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.event_types !== undefined ? { event_types: input.event_types } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    };
    const outcome = await this.runner.run(
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      { type: 'UpdateEndpoint', data: { accountId, changes, at: this.clock.now() } },
      metadata,
    );
    return { position: outcome.position };
  }
}

export interface SecretRotated extends WebhookWrite {
  id: string;
  secret: string;
  rotated_at: string;
  previous_secret_expires_at: string;
}

/**
 * The new secret signs at once; the previous one adds a second signature for 24 hours. The
 * caller checks that the endpoint exists first: sealing needs the endpoint's data key.
 */
@CommandHandler(RotateWebhookSecret)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecret, SecretRotated> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ endpointId, accountId, metadata }: RotateWebhookSecret): Promise<SecretRotated> {
    const secret = generateWebhookSecret();
    const sealed = await this.secrets.encrypt(endpointId, SIGNING_SECRET_FIELD, secret);
    const outcome = await this.runner.run(
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      { type: 'RotateSecret', data: { accountId, secret: sealed, at: this.clock.now() } },
      metadata,
    );
    const rotated = outcome.events[0];
    if (rotated?.type !== 'WebhookEndpointSecretRotated') throw new Error('unexpected event');
    return {
      position: outcome.position,
      id: endpointId,
      secret,
      rotated_at: rotated.data.rotated_at,
      previous_secret_expires_at: rotated.data.previous_secret_expires_at,
    };
  }
}

/** A `ping` event for this endpoint only, delivered (and retried) like any other. */
@CommandHandler(PingWebhookEndpoint)
export class PingWebhookEndpointHandler implements ICommandHandler<
  PingWebhookEndpoint,
  WebhookWrite & { eventId: string }
> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ endpointId, accountId, metadata }: PingWebhookEndpoint): Promise<WebhookWrite & { eventId: string }> {
    const eventId = newId('evt');
    const outcome = await this.runner.run(
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      { type: 'PingEndpoint', data: { accountId, eventId, at: this.clock.now() } },
      metadata,
    );
    return { position: outcome.position, eventId };
  }
}

/** Deleted, then crypto-shredded: the sealed secrets in its history become unrecoverable. */
@CommandHandler(DeleteWebhookEndpoint)
export class DeleteWebhookEndpointHandler implements ICommandHandler<DeleteWebhookEndpoint, WebhookWrite> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ endpointId, accountId, metadata }: DeleteWebhookEndpoint): Promise<WebhookWrite> {
    const outcome = await this.runner.run(
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      { type: 'DeleteEndpoint', data: { accountId, at: this.clock.now() } },
      metadata,
    );
    await this.secrets.destroy(endpointId);
    return { position: outcome.position };
  }
}

export class DisableWebhookEndpoint {
  constructor(
    readonly endpointId: string,
    readonly reason: string,
  ) {}
}

/** The delivery worker's decision that an endpoint keeps failing (or answered 410 Gone). */
@CommandHandler(DisableWebhookEndpoint)
export class DisableWebhookEndpointHandler implements ICommandHandler<DisableWebhookEndpoint, WebhookWrite> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ endpointId, reason }: DisableWebhookEndpoint): Promise<WebhookWrite> {
    const outcome = await this.runner.run(
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      { type: 'DisableEndpoint', data: { reason, at: this.clock.now() } },
      { actor: 'system:webhooks', correlation_id: endpointId },
    );
    return { position: outcome.position };
  }
}
