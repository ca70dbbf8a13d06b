"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createApp = createApp;
require("reflect-metadata");
const node_http_1 = require("node:http");
const core_1 = require("@nestjs/core");
const platform_fastify_1 = require("@nestjs/platform-fastify");
const app_module_1 = require("./app.module");
const admin_bootstrap_1 = require("./platform/auth/admin-bootstrap");
const request_gate_1 = require("./platform/auth/request-gate");
const client_error_1 = require("./platform/http/client-error");
const front_door_1 = require("./platform/http/front-door");
const json_body_parser_1 = require("./platform/http/json-body.parser");
const ndjson_parser_1 = require("./ingestion/ndjson.parser");
const request_id_1 = require("./platform/http/request-id");
const request_validation_pipe_1 = require("./platform/http/request-validation.pipe");
const route_table_1 = require("./platform/http/route-table");
const tls_material_1 = require("./platform/http/tls-material");
const logging_1 = require("./platform/logging/logging");
const openapi_document_1 = require("./platform/openapi/openapi.document");
const openapi_controller_1 = require("./platform/openapi/openapi.controller");
const domain_error_1 = require("./shared/domain-error");
async function createApp(config, options = {}) {
    const logger = (0, logging_1.createRootLogger)(config.logLevel, options.logStream);
    const tls = config.tls.mode === 'native' ? await (0, tls_material_1.loadTlsMaterial)({ ...config.tls, dataDir: config.dataDir }) : null;
    let server = null;
    const adapter = new platform_fastify_1.FastifyAdapter({
        serverFactory: (handler) => {
            server = tls ? (0, front_door_1.createTlsServer)(tls, handler) : (0, node_http_1.createServer)({ maxHeaderSize: 16 * 1024, requestTimeout: 30_000, headersTimeout: 10_000 }, handler);
            return server;
        },
        bodyLimit: ndjson_parser_1.MAX_INGEST_BYTES,
        genReqId: request_id_1.requestIdOf,
        requestIdHeader: false,
        requestIdLogLabel: 'request_id',
        loggerInstance: logger.child({ context: 'http' }),
        // One line per request, written by the gate's onResponse hook, instead of Fastify's two.
        disableRequestLogging: true,
        trustProxy: config.tls.mode === 'proxy',
        routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
        return503OnClosing: true,
        clientErrorHandler: client_error_1.answerClientError,
    });
    const app = await core_1.NestFactory.create(app_module_1.AppModule.forRoot(config, { logger }), adapter, {
        logger: new logging_1.NestPinoLogger(logger),
        abortOnError: false,
        bodyParser: false,
    });
    app.useGlobalPipes(new request_validation_pipe_1.RequestValidationPipe());
    const fastify = app.getHttpAdapter().getInstance();
    configureFastify(fastify, app, config);
    await app.init();
    // We listen through our own front door, not fastify.listen(), so ready() (which compiles each
    // route's hooks) must be called here.
    await fastify.ready();
    app.get(openapi_controller_1.OpenApiDocument).document = (0, openapi_document_1.buildOpenApiDocument)(app);
    const front = tls ? new front_door_1.FrontDoor(server) : null;
    const port = front ? await front.listen(config.port, config.host) : await listenPlain(server, config);
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    return {
        app,
        port,
        baseUrl: `${tls ? 'https' : 'http'}://${host}:${port}/v1`,
        tls,
        generatedAdminKey: app.get(admin_bootstrap_1.AdminBootstrap).generatedKey,
        close: async () => {
            if (front) {
                await front.close();
            }
            else {
                const plain = server;
                const closed = new Promise((resolve) => plain.close(() => resolve()));
                plain.closeIdleConnections();
                await closed;
            }
            await app.close();
        },
    };
}
function configureFastify(fastify, app, config) {
    const routes = app.get(route_table_1.RouteTable);
    fastify.addHook('onRoute', (route) => routes.add(route.method, route.url));
    const isIngest = (path) => path.startsWith('/v1/ingest/');
    (0, json_body_parser_1.registerJsonParser)(fastify, { defaultBytes: config.bodyLimitBytes, largeBytes: ndjson_parser_1.MAX_INGEST_BYTES, isLarge: isIngest });
    (0, ndjson_parser_1.registerNdjsonParser)(fastify);
    if (config.tls.mode === 'proxy') {
        // Behind a TLS-terminating proxy, the proxy's word is the only sign the client used TLS.
        fastify.addHook('onRequest', async (request, reply) => {
            void reply.header('X-Request-Id', request.id);
            if (request.headers['x-forwarded-proto'] !== 'https')
                throw new domain_error_1.DomainError('missing_required_field', front_door_1.HTTPS_REQUIRED_MESSAGE);
        });
    }
    const gate = app.get(request_gate_1.RequestGate);
    fastify.addHook('onRequest', gate.onRequest);
    fastify.addHook('onResponse', gate.onResponse);
}
function listenPlain(server, config) {
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
            const address = server.address();
            resolve(typeof address === 'object' && address ? address.port : config.port);
        });
    });
}
//# sourceMappingURL=app.factory.js.map