import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { notFound } from '../../shared/domain-error';
import { ExportView, exportKeys, exportViewCodec } from '../projections/export-views';
import { exportDto, ExportDto } from './export.dto';

export class GetExport {
  constructor(
    readonly accountId: string,
    readonly exportId: string,
  ) {}
}

/** The job's view, for its own account only: another account's export is exactly a missing one. */
export class GetExportView {
  constructor(
    readonly accountId: string,
    readonly exportId: string,
  ) {}
}

@QueryHandler(GetExportView)
export class GetExportViewHandler implements IQueryHandler<GetExportView, ExportView> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({ accountId, exportId }: GetExportView): Promise<ExportView> {
    const view = exportViewCodec.decode(await this.store.get(exportKeys.export(exportId)));
    if (!view || view.account_id !== accountId) throw notFound(`Export ${exportId}`);
    return view;
  }
}

@QueryHandler(GetExport)
export class GetExportHandler implements IQueryHandler<GetExport, ExportDto> {
  constructor(private readonly views: GetExportViewHandler) {}

  async execute({ accountId, exportId }: GetExport): Promise<ExportDto> {
    return exportDto(await this.views.execute(new GetExportView(accountId, exportId)));
  }
}
