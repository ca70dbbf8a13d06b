import { Module } from '@nestjs/common';
import { RejectionsController } from './http/rejections.controller';
import { RejectionIngestion } from './ingestion/rejection-ingestion.service';
import { ListTrunkRejectionsHandler, ListUnownedRejectionsHandler } from './read/rejections.queries';

/**
 * The rejection log (docs/sip-gateway.md): a gateway reports every refused INVITE, an account
 * lists its trunks' rejections, and the analytics overview counts them by reason.
 */
@Module({
  controllers: [RejectionsController],
  providers: [RejectionIngestion, ListTrunkRejectionsHandler, ListUnownedRejectionsHandler],
})
export class RejectionsModule {}
