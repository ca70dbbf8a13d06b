import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import { SECRET_BOX, SecretBox } from '../../infrastructure/secrets/secret-box';
import { deliveryIdOf } from '../domain/deterministic-id';
import {
  deliveryDto,
  endpointDto,
  WebhookDeliveryDto,
  WebhookEndpointCreatedDto,
  WebhookEndpointDto,
  WebhookSecretRotatedDto,
} from '../read/webhook.dto';
import { CLOCK, Clock } from '../../shared/clock';
import { newId } from '../../shared/ids';
import { EndpointSecrets, SIGNING_SECRET_FIELD } from '../delivery/endpoint-secrets';
import { generateWebhookSecret } from '../domain/webhook-signer';
import { CommandRunner } from '../../write/command-runner';
import { EndpointChanges, webhookEndpointDecider, webhookEndpointStream } from '../domain/webhook-endpoint.decider';
import { CreateWebhookEndpointRequestDto, UpdateWebhookEndpointRequestDto } from './dto/webhook-endpoint.request.dto';
import { WebhookEndpointSupport } from '../http/webhook-endpoint-support';

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
export class CreateWebhookEndpointHandler implements ICommandHandler<CreateWebhookEndpoint, WebhookEndpointCreatedDto> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly support: WebhookEndpointSupport,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, metadata }: CreateWebhookEndpoint): Promise<WebhookEndpointCreatedDto> {
    this.support.checkUrl(input.url);
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
    await this.support.settled(outcome.position);
    return { ...endpointDto(await this.support.endpoint(accountId, endpointId)), secret };
  }
}

@CommandHandler(UpdateWebhookEndpoint)
export class UpdateWebhookEndpointHandler implements ICommandHandler<UpdateWebhookEndpoint, WebhookEndpointDto> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly support: WebhookEndpointSupport,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ endpointId, accountId, input, metadata }: UpdateWebhookEndpoint): Promise<WebhookEndpointDto> {
    this.support.checkUrl(input.url);
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
    await this.support.settled(outcome.position);
    return endpointDto(await this.support.endpoint(accountId, endpointId));
  }
}

/** The new secret signs at once; the previous one adds a second signature for 24 hours. */
@CommandHandler(RotateWebhookSecret)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecret, WebhookSecretRotatedDto> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly support: WebhookEndpointSupport,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ endpointId, accountId, metadata }: RotateWebhookSecret): Promise<WebhookSecretRotatedDto> {
    await this.support.endpoint(accountId, endpointId);
    const secret = generateWebhookSecret();
    const sealed = await this.secrets.encrypt(endpointId, SIGNING_SECRET_FIELD, secret);
    const outcome = await this.runner.run(
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      { type: 'RotateSecret', data: { accountId, secret: sealed, at: this.clock.now() } },
      metadata,
    );
    await this.support.settled(outcome.position);
    const rotated = outcome.events[0];
    if (rotated?.type !== 'WebhookEndpointSecretRotated') throw new Error('unexpected event');
    return {
      id: endpointId,
      secret,
      rotated_at: rotated.data.rotated_at,
      previous_secret_expires_at: rotated.data.previous_secret_expires_at,
    };
  }
}

/** A `ping` event for this endpoint only, delivered (and retried) like any other. */
@CommandHandler(PingWebhookEndpoint)
export class PingWebhookEndpointHandler implements ICommandHandler<PingWebhookEndpoint, WebhookDeliveryDto> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly support: WebhookEndpointSupport,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ endpointId, accountId, metadata }: PingWebhookEndpoint): Promise<WebhookDeliveryDto> {
    const eventId = newId('evt');
    const outcome = await this.runner.run(
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      { type: 'PingEndpoint', data: { accountId, eventId, at: this.clock.now() } },
      metadata,
    );
    await this.support.settled(outcome.position);
    return deliveryDto(await this.support.delivery(accountId, deliveryIdOf(eventId, endpointId)));
  }
}

/** Deleted, then crypto-shredded: the sealed secrets in its history become unrecoverable. */
@CommandHandler(DeleteWebhookEndpoint)
export class DeleteWebhookEndpointHandler implements ICommandHandler<DeleteWebhookEndpoint, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly support: WebhookEndpointSupport,
    private readonly unsealed: EndpointSecrets,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ endpointId, accountId, metadata }: DeleteWebhookEndpoint): Promise<void> {
    const outcome = await this.runner.run(
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      { type: 'DeleteEndpoint', data: { accountId, at: this.clock.now() } },
      metadata,
    );
    await this.secrets.destroy(endpointId);
    this.unsealed.forget(endpointId);
    await this.support.settled(outcome.position);
  }
}
