import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata, GlobalPosition } from '../../infrastructure/event-store/event-store.port';
import { READ_YOUR_WRITES, ReadYourWrites } from '../../eventsourcing/read-your-writes.port';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { CLOCK, Clock } from '../../shared/clock';
import { newId } from '../../shared/ids';
import { ExportCommand, exportDecider, ExportState, exportStream } from '../domain/export.decider';
import { ExportEvent } from '../domain/export.events';
import { CreateExportRequestDto } from './dto/create-export.request.dto';
import { exportFilters } from './export-range';

export class RequestExport {
  constructor(
    readonly accountId: string,
    readonly body: CreateExportRequestDto,
    readonly metadata: EventMetadata,
  ) {}
}

/** A step of the job's life taken by the runner or the retention sweep (never by a client). */
export class DecideExport {
  constructor(
    readonly exportId: string,
    readonly command: Exclude<ExportCommand, { type: 'RequestExport' }>,
    readonly metadata: EventMetadata,
  ) {}
}

export interface ExportWritten {
  events: ExportEvent[];
  state: ExportState;
  position: GlobalPosition | null;
}

@CommandHandler(RequestExport)
export class RequestExportHandler implements ICommandHandler<RequestExport, { exportId: string }> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(READ_YOUR_WRITES) private readonly readModels: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, body, metadata }: RequestExport): Promise<{ exportId: string }> {
    const at = this.clock.now();
    const exportId = newId('exp');
    const filters = exportFilters(body, at);
    const outcome = await this.runner.run(
      exportStream(exportId),
      exportDecider,
      { type: 'RequestExport', data: { exportId, accountId, format: body.format, filters, at } },
      metadata,
    );
    await this.readModels.waitFor(outcome.position, outcome.events);
    return { exportId };
  }
}

@CommandHandler(DecideExport)
export class DecideExportHandler implements ICommandHandler<DecideExport, ExportWritten> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(READ_YOUR_WRITES) private readonly readModels: ReadYourWrites,
  ) {}

  async execute({ exportId, command, metadata }: DecideExport): Promise<ExportWritten> {
    const outcome = await this.runner.run(exportStream(exportId), exportDecider, command, metadata);
    await this.readModels.waitFor(outcome.position, outcome.events);
    return { events: outcome.events, state: outcome.state, position: outcome.position };
  }
}
