import { DynamicModule, Module } from '@nestjs/common';
import { CommandRunner } from '../eventsourcing/command-runner';
import type { FeatureWiring } from '../platform/modules/feature-wiring';
import { GatewayController } from './http/gateway.controller';
import { GatewayAgentController, TrunksWriteController } from './http/trunks.controller';
import { TrunksReadController } from './http/trunks-read.controller';
import { ClickHouseTrunkStats } from './read/clickhouse-trunk-stats';
import { ListGatewayChangesHandler } from './read/gateway-changes.query';
import { LookupGatewayTrunkHandler } from './read/gateway.queries';
import { GetTrunkAsOfHandler, GetTrunkHistoryHandler } from './read/trunk-history.queries';
import { GetTrunkHandler, ListTrunksHandler } from './read/trunk.queries';
import { TRUNK_STATS_READER } from './read/trunk-stats.port';
import { ListTrunksAsOfHandler } from './read/trunks-as-of.query';
import { CreateTrunkHandler } from './write/create-trunk.handler';
import { DeleteTrunkHandler } from './write/delete-trunk.handler';
import { ReadAgentCredentialsHandler } from './write/read-agent-credentials.handler';
import { ReportTrunkHealthHandler } from './write/report-trunk-health.handler';
import { Reservations } from './write/reservation.service';
import { RotateSipPasswordHandler } from './write/rotate-sip-password.handler';
import { TrunkSupport } from './write/trunk-support';
import { UpdateTrunkHandler } from './write/update-trunk.handler';

/**
 * SIP trunks: their commands and routes, their reads (current, history, as of an instant, the
 * gateway's lookups and change feed) and their call statistics. The wiring gives the audit log
 * (a list as of an instant reads it).
 */
@Module({})
export class TrunksModule {
  static forRoot(wiring: FeatureWiring): DynamicModule {
    return {
      module: TrunksModule,
      imports: wiring.imports ?? [],
      controllers: [TrunksWriteController, GatewayAgentController, TrunksReadController, GatewayController],
      providers: [
        ...(wiring.providers ?? []),
        CommandRunner,
        Reservations,
        TrunkSupport,
        { provide: TRUNK_STATS_READER, useClass: ClickHouseTrunkStats },
        CreateTrunkHandler,
        UpdateTrunkHandler,
        RotateSipPasswordHandler,
        DeleteTrunkHandler,
        ReadAgentCredentialsHandler,
        ReportTrunkHealthHandler,
        ListTrunksHandler,
        GetTrunkHandler,
        GetTrunkHistoryHandler,
        GetTrunkAsOfHandler,
        ListTrunksAsOfHandler,
        LookupGatewayTrunkHandler,
        ListGatewayChangesHandler,
      ],
    };
  }
}
