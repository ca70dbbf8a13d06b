import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';

/** Holds the description generated from the controllers and DTOs at start-up. */
export class OpenApiDocument {
  document: OpenAPIObject | null = null;
}

@ApiExcludeController()
@Controller('v1')
export class OpenApiController {
  constructor(private readonly holder: OpenApiDocument) {}

  @Get('openapi.json')
  get(): OpenAPIObject | Record<string, never> {
    return this.holder.document ?? {};
  }
}
