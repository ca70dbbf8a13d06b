// autocannon ships no types and @types/autocannon is not a dependency: only what the bench uses.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    /** Stop after this many requests instead of after `duration`. */
    amount?: number;
    headers?: Record<string, string>;
    tlsOptions?: import('node:tls').ConnectionOptions;
    /** Per-request setup: the returned object replaces the request (method, path, body). */
    requests?: { setupRequest: (request: Record<string, unknown>) => Record<string, unknown> }[];
  }

  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }

  interface Instance extends Promise<Result> {
    stop(): void;
    /** responseTime is in milliseconds, fractional (the result's histograms keep whole ms only). */
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
  }

  function autocannon(options: Options): Instance;
  export = autocannon;
}
