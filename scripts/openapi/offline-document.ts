import 'reflect-metadata';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from '../../src/app.module';
import { loadConfig } from '../../src/platform/config/app-config';
import { createRootLogger } from '../../src/platform/logging/logging';
import { buildOpenApiDocument } from '../../src/platform/openapi/openapi.document';

/**
 * The document the server serves at /v1/openapi.json, built without starting it: Nest's preview
 * mode resolves the module graph and reads the controllers' metadata but instantiates no
 * provider, so no store is opened, no port taken and nothing written to a data directory.
 */
export async function buildDocumentOffline(): Promise<OpenAPIObject> {
  const config = loadConfig({ DATA_DIR: join(tmpdir(), 'trunkline-openapi-preview'), LOG_LEVEL: 'silent' });
  const logger = createRootLogger('silent');
  const app = await NestFactory.create(AppModule.forRoot(config, { logger }), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
