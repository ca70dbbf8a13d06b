import { DynamicModule, Module } from '@nestjs/common';
import type { FeatureWiring } from '../platform/modules/feature-wiring';
import { RejectionsController } from './http/rejections.controller';
import { RejectionIngestion } from './ingestion/rejection-ingestion.service';
import { ListTrunkRejectionsHandler, ListUnownedRejectionsHandler } from './read/rejections.queries';

/**
 * The rejection log (docs/sip-gateway.md): a gateway reports every refused INVITE, an account
 * lists its trunks' rejections, and the analytics overview counts them by reason. The wiring gives
 * REJECTION_BATCH_OBSERVER (the live call stream): who hears of each stored batch.
 */
@Module({})
export class RejectionsModule {
  static forRoot(wiring: FeatureWiring = {}): DynamicModule {
    return {
      module: RejectionsModule,
      imports: wiring.imports ?? [],
      controllers: [RejectionsController],
      providers: [
        ...(wiring.providers ?? []),
        RejectionIngestion,
        ListTrunkRejectionsHandler,
        ListUnownedRejectionsHandler,
      ],
    };
  }
}
