import type { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

const HOOKS = ['onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown'] as const;

/**
 * Which shutdown hooks have started and not finished: a stop that overruns its deadline names
 * them (`Class.hook`), so a hang is found from one log line instead of a bisection. Each
 * provider's hooks are wrapped once, after init; a hook's own behaviour is unchanged.
 */
export class ShutdownTrace {
  private readonly running = new Map<number, string>();
  private next = 0;
  step = 'running';

  constructor(app: INestApplicationContext) {
    for (const module of app.get(ModulesContainer).values()) {
      for (const wrapper of [
        ...module.providers.values(),
        ...module.controllers.values(),
        ...module.injectables.values(),
      ]) {
        const instance = wrapper.instance as Record<string, unknown> | null | undefined;
        if (!instance || typeof instance !== 'object') continue;
        for (const hook of HOOKS) this.wrap(instance, hook);
      }
    }
  }

  /** The hooks under way (`Class.hook`), or the step of the stop when none is. */
  pending(): string[] {
    return this.running.size > 0 ? [...new Set(this.running.values())] : [this.step];
  }

  private wrap(instance: Record<string, unknown>, hook: string): void {
    const original = instance[hook];
    if (typeof original !== 'function' || Object.prototype.hasOwnProperty.call(instance, hook)) return;
    const name = `${instance.constructor?.name ?? 'provider'}.${hook}`;
    instance[hook] = async (...args: unknown[]) => {
      const id = this.next++;
      this.running.set(id, name);
      try {
        return await (original as (...a: unknown[]) => unknown).apply(instance, args);
      } finally {
        this.running.delete(id);
      }
    };
  }
}
