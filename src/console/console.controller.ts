import { join } from 'node:path';
import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../shared/domain-error';
import { CONSOLE_SETTINGS, ConsoleSettings } from './console.settings';
import { CONSOLE_CSP, IMMUTABLE, REVALIDATE, sendStatic } from './page-headers';
import { LazyFiles, loadStaticFile } from './static-files';

const ASSET_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(js|css|svg|png|woff2)$/;

/**
 * The operator console: a single page (hash routes, so one entry URL) and its content-hashed
 * assets. It calls the public /v1 API with the key the user types in; the server knows nothing
 * of it beyond these files.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  private readonly files = new LazyFiles();

  constructor(@Inject(CONSOLE_SETTINGS) private readonly settings: ConsoleSettings) {}

  @Get()
  async index(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const file = await this.files.get('index.html', () => loadStaticFile(join(this.settings.dir, 'index.html')));
    if (!file) throw new DomainError('service_unavailable', 'The console is not built: run npm run build');
    sendStatic(request, reply, file, { csp: CONSOLE_CSP, cacheControl: REVALIDATE });
  }

  @Get('assets/:file')
  async asset(@Param('file') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!ASSET_NAME.test(name)) throw new DomainError('not_found', 'No such file');
    const file = await this.files.get(name, () => loadStaticFile(join(this.settings.dir, 'assets', name)));
    sendStatic(request, reply, file, { csp: CONSOLE_CSP, cacheControl: IMMUTABLE });
  }
}
