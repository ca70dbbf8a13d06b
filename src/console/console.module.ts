import { DynamicModule, Module } from '@nestjs/common';
import { ConsoleController } from './console.controller';
import { CONSOLE_SETTINGS, ConsoleSettings } from './console.settings';
import { DocsController } from './docs.controller';

/** The browser-facing pages: the operator console (/console) and the API reference (/docs). */
@Module({})
export class ConsoleModule {
  static forRoot(settings: ConsoleSettings): DynamicModule {
    return {
      module: ConsoleModule,
      controllers: [ConsoleController, DocsController],
      providers: [{ provide: CONSOLE_SETTINGS, useValue: settings }],
    };
  }
}
