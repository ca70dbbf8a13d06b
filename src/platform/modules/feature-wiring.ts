import type { DynamicModule, Provider, Type } from '@nestjs/common';

/**
 * What the composition root (app.module.ts) hands a feature module: the modules whose exports it
 * uses, passed by reference so each is one instance, and the bindings of the feature's ports to
 * other folders' services. The feature itself imports no other feature's module.
 */
export interface FeatureWiring {
  imports?: (DynamicModule | Type<unknown>)[];
  providers?: Provider[];
}
