import { dirname, join } from 'node:path';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../shared/domain-error';
import { DOCS_CSS, DOCS_JS, docsHtml, SWAGGER_UI_FILES } from './docs-page';
import { DOCS_CSP, IMMUTABLE, REVALIDATE, sendStatic } from './page-headers';
import { LazyFiles, loadStaticFile } from './static-files';

const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the version names the cacheable asset path
const SWAGGER_UI_VERSION = (require('swagger-ui-dist/package.json') as { version: string }).version;

/** GET /docs: the API reference, readable without a key (the description itself is public). */
@ApiExcludeController()
@Controller('docs')
export class DocsController {
  private readonly files = new LazyFiles();

  @Get()
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const file = await this.files.get('page', () => loadStaticFile('index.html', docsHtml(SWAGGER_UI_VERSION)));
    sendStatic(request, reply, file, { csp: DOCS_CSP, cacheControl: REVALIDATE });
  }

  @Get('docs.js')
  async script(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const file = await this.files.get('docs.js', () => loadStaticFile('docs.js', DOCS_JS));
    sendStatic(request, reply, file, { csp: DOCS_CSP, cacheControl: REVALIDATE });
  }

  @Get('docs.css')
  async style(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const file = await this.files.get('docs.css', () => loadStaticFile('docs.css', DOCS_CSS));
    sendStatic(request, reply, file, { csp: DOCS_CSP, cacheControl: REVALIDATE });
  }

  @Get('assets/:version/:file')
  async asset(
    @Param('version') version: string,
    @Param('file') name: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (version !== SWAGGER_UI_VERSION || !SWAGGER_UI_FILES.has(name))
      throw new DomainError('not_found', 'No such file');
    const file = await this.files.get(name, () => loadStaticFile(join(SWAGGER_UI_DIR, name)));
    sendStatic(request, reply, file, { csp: DOCS_CSP, cacheControl: IMMUTABLE });
  }
}
