import 'reflect-metadata';
import { createServer as createPlainServer, Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { AdminBootstrap } from './api-keys/write/admin-key.bootstrap';
import { RequestGate } from './access/request-gate';
import { IdempotencyGuard } from './idempotency/idempotency.guard';
import { registerRestoringHooks } from './platform/http/restoring.hook';
import { ReadModels } from './read-models/read-models.service';
import { AppConfig } from './platform/config/app-config';
import { answerClientError } from './platform/http/client-error';
import { answerFrameworkError } from './platform/http/framework-errors';
import {
  createTlsServer,
  FrontDoor,
  HTTPS_REQUIRED_MESSAGE,
  RequestHandler,
  slowClientOptions,
} from './platform/http/front-door';
import { registerJsonParser } from './platform/http/json-body.parser';
import { BodylessOperationInterceptor } from './platform/http/bodyless-operation.interceptor';
import { MAX_INGEST_BYTES, registerNdjsonParser } from './platform/http/ndjson.parser';
import { requestIdOf } from './platform/http/request-id';
import { RequestValidationPipe } from './platform/http/request-validation.pipe';
import { RouteTable } from './platform/http/route-table';
import { loadTlsMaterial, TlsMaterial } from './platform/http/tls-material';
import { createRootLogger, lazyRequestLogger, NestPinoLogger } from './platform/logging/logging';
import { buildOpenApiDocument } from './platform/openapi/openapi.document';
import { OpenApiDocument } from './platform/openapi/openapi.controller';
import { DomainError } from './shared/domain-error';
import type { Clock } from './shared/clock';
import { ShutdownTrace } from './platform/startup/shutdown-trace';
import { CallStreams } from './analytics/live/call-streams';

export interface RunningApp {
  app: NestFastifyApplication;
  port: number;
  /** e.g. https://localhost:8443/v1 */
  baseUrl: string;
  tls: TlsMaterial | null;
  /** The admin key issued on a first start without ADMIN_API_KEY, once listening; printed once. */
  generatedAdminKey: string | null;
  /** Graceful: stop accepting, finish in-flight requests, stop projections, close stores. */
  close(): Promise<void>;
  /** What a close under way is waiting for: the shutdown hooks not finished (`Class.hook`), or its step. */
  pendingShutdown(): string[];
}

export interface CreateAppOptions {
  /** Where log lines go (tests capture them to scan for secrets); stdout by default. */
  logStream?: DestinationStream;
  /** The wall clock handlers and the gate read (tests move it instead of waiting); the system's by default. */
  clock?: Clock;
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<RunningApp> {
  const logger = createRootLogger(config.logLevel, options.logStream);
  const tls = config.tls.mode === 'native' ? await loadTlsMaterial({ ...config.tls, dataDir: config.dataDir }) : null;
  // Set by the factory during app.init(). Declared without an initialiser: TypeScript does not see
  // a callback's assignment and would narrow `= null` to null for good.
  let tlsServer: HttpsServer | undefined;
  let plainServer: Server | undefined;
  const adapter = new FastifyAdapter({
    serverFactory: (handler: RequestHandler) =>
      tls
        ? (tlsServer = createTlsServer(tls, handler, config))
        : (plainServer = createPlainServer(slowClientOptions(config), handler)),
    bodyLimit: MAX_INGEST_BYTES,
    genReqId: requestIdOf,
    requestIdHeader: false,
    loggerInstance: logger.child({ context: 'http' }),
    childLoggerFactory: lazyRequestLogger,
    // One line per request, written by the gate's onResponse hook, instead of Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    trustProxy: config.tls.mode === 'proxy',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    return503OnClosing: true,
    // No Nest middleware is used (hooks and guards do that work): without @fastify/middie no
    // request pays for matching an empty middleware chain (about 5 % of a GET's CPU).
    skipMiddie: true,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, { logger, clock: options.clock }),
    adapter,
    {
      logger: new NestPinoLogger(logger),
      abortOnError: false,
      bodyParser: false,
    },
  );
  app.useGlobalPipes(new RequestValidationPipe());
  app.useGlobalInterceptors(new BodylessOperationInterceptor());
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  configureFastify(fastify, app, config);
  await app.init();
  // We listen through our own front door, not fastify.listen(), so ready() (which compiles each
  // route's hooks) must be called here.
  await fastify.ready();
  app.get(OpenApiDocument).document = buildOpenApiDocument(app);

  const front = tlsServer ? new FrontDoor(tlsServer, config.headersTimeoutMs) : null;
  const plain = plainServer;
  const trace = new ShutdownTrace(app);
  const close = async () => {
    // A live stream never finishes by itself: ended first, so in-flight requests can finish.
    app.get(CallStreams, { strict: false }).endAll();
    trace.step = 'finishing in-flight requests';
    if (front) {
      await front.close();
    } else if (plain) {
      const closed = new Promise<void>((resolve) => plain.close(() => resolve()));
      plain.closeIdleConnections();
      await closed;
    }
    trace.step = 'closing modules';
    await app.close();
    trace.step = 'closed';
  };
  let port: number;
  let generatedAdminKey: string | null;
  try {
    if (front) port = await front.listen(config.port, config.host);
    else if (plain) port = await listenPlain(plain, config);
    else throw new Error('Fastify did not create its HTTP server');
    // Only now: a start that cannot listen must not issue an admin key nobody is shown.
    generatedAdminKey = await app.get(AdminBootstrap).issueOnFirstStart();
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return {
    app,
    port,
    baseUrl: `${tls ? 'https' : 'http'}://${host}:${port}/v1`,
    tls,
    generatedAdminKey,
    close,
    pendingShutdown: () => trace.pending(),
  };
}

function configureFastify(fastify: FastifyInstance, app: NestFastifyApplication, config: AppConfig): void {
  const routes = app.get(RouteTable);
  fastify.addHook('onRoute', (route) => routes.add(route.method as string | string[], route.url));
  const isIngest = (path: string) => path.startsWith('/v1/ingest/');
  registerJsonParser(fastify, {
    defaultBytes: config.bodyLimitBytes,
    largeBytes: MAX_INGEST_BYTES,
    isLarge: isIngest,
    alsoAccepts: (path) => (isIngest(path) ? ['application/x-ndjson'] : []),
  });
  registerNdjsonParser(fastify);
  // Before the gate: a request's restore mark must predate anything it reads (the gate reads ahead).
  const markRestore = registerRestoringHooks(fastify, app.get(ReadModels));
  const gate = app.get(RequestGate);
  const behindProxy = config.tls.mode === 'proxy';
  // The gate takes the Nest adapter's own request and response hooks (a slot each, called on every
  // request whether set or not) instead of hooks of its own, and it runs first: a hot GET the gate
  // answers stops the chain there, before the adapter's three other onRequest hooks (CORS, which
  // this app does not enable; request targets that are not paths; versioning errors, none here).
  // Those hooks still see every request the gate passes on, and none would act on one it answers:
  // that has a matched route, and the router matches only a path or an absolute http(s) URL.
  const adapter = app.getHttpAdapter() as FastifyAdapter;
  adapter.setOnRequestHook((request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    markRestore(request);
    // Behind a TLS-terminating proxy, the proxy's word is the only sign the client used TLS.
    if (behindProxy && request.headers['x-forwarded-proto'] !== 'https') {
      void reply.header('X-Request-Id', request.id);
      return done(new DomainError('missing_required_field', HTTPS_REQUIRED_MESSAGE, { reason: 'https_required' }));
    }
    gate.onRequest(request, reply, done);
  });
  adapter.setOnResponseHook(gate.onResponse);
  // After the gate (a principal to scope keys by) and the body parser (a body to compare), and
  // last on send, so the answer it keeps is the one the client gets: route hooks run after the
  // global ones. Only POST routes carry them (Idempotency-Key is a POST header), so the other
  // requests do not pay two promise hops for hooks that let them pass.
  const idempotency = app.get(IdempotencyGuard);
  fastify.addHook('onRoute', (route) => {
    if (!([] as string[]).concat(route.method).includes('POST')) return;
    route.preHandler = [...hooksOf(route.preHandler), idempotency.preHandler];
    route.onSend = [...hooksOf(route.onSend), idempotency.onSend];
  });
}

function hooksOf<H>(hooks: H | H[] | undefined): H[] {
  return hooks === undefined ? [] : ([] as H[]).concat(hooks);
}

function listenPlain(server: Server, config: AppConfig): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : config.port);
    });
  });
}
