import { Module } from '@nestjs/common';
import { CommandRunner } from '../eventsourcing/command-runner';
import { ExportsController } from './http/exports.controller';
import { GetExportHandler, GetExportViewHandler } from './read/export.queries';
import { ExportRunner } from './run/export.runner';
import { DecideExportHandler, RequestExportHandler } from './write/export.handlers';
import { EXPORT_SETTINGS, ExportSettings } from './exports.settings';

/**
 * Exports of calls to files: the job's commands and its view (projected with the other read
 * models, src/read-models/), its routes, and the runner that writes the files and deletes them
 * when they expire. docs/exports.md.
 */
@Module({})
export class ExportsModule {
  static forRoot(settings: ExportSettings) {
    return {
      module: ExportsModule,
      controllers: [ExportsController],
      providers: [
        { provide: EXPORT_SETTINGS, useValue: settings },
        CommandRunner,
        RequestExportHandler,
        DecideExportHandler,
        GetExportViewHandler,
        GetExportHandler,
        ExportRunner,
      ],
    };
  }
}
