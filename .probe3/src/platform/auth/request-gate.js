"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.RequestGate = void 0;
const common_1 = require("@nestjs/common");
const logging_1 = require("../logging/logging");
const clock_1 = require("../../shared/clock");
const domain_error_1 = require("../../shared/domain-error");
const rate_limiter_port_1 = require("../../infrastructure/rate-limit/rate-limiter.port");
const credential_gate_1 = require("./credential-gate");
const app_config_1 = require("../config/app-config");
const authenticator_1 = require("./authenticator");
const route_policy_1 = require("./route-policy");
/**
 * Runs before body parsing on every request, matched or not: authenticate, count against the
 * key's (or, without a valid key, the client address's) rate limit, set the rate headers, then
 * check the route's scope. Rejecting here costs no body parsing.
 */
let RequestGate = class RequestGate {
    config;
    authenticator;
    limiter;
    usage;
    clock;
    logger;
    constructor(config, authenticator, limiter, usage, clock, logging) {
        this.config = config;
        this.authenticator = authenticator;
        this.limiter = limiter;
        this.usage = usage;
        this.clock = clock;
        this.logger = logging.for('gate');
    }
    onRequest = async (request, reply) => {
        void reply.header('X-Request-Id', request.id);
        const now = this.clock.now();
        // The registered pattern, not the raw path, decides a matched route's policy, so no encoding
        // trick can reach a handler under another area's rules. Unmatched requests reach no handler.
        const policy = (0, route_policy_1.policyFor)(request.routeOptions.url ?? request.url.split('?')[0]);
        if (policy.kind === 'public') {
            // Health and the API description must answer while Redis is down: limited on a best-effort basis.
            await this.limit(`ip:${request.ip}`, reply, now).catch((error) => {
                if (error instanceof domain_error_1.DomainError && error.code === 'rate_limit_exceeded')
                    throw error;
            });
            return;
        }
        const { principal, error, decision } = await this.dependency(() => this.authenticator.authenticate(request.headers.authorization, now, `ip:${request.ip}`));
        this.applyDecision(decision, reply, now);
        if (error || !principal)
            throw error ?? new domain_error_1.DomainError('unauthorized', 'Invalid API key');
        request.principal = principal;
        (0, route_policy_1.assertAllowed)(principal, policy.area, request.method);
    };
    onResponse = async (request, reply) => {
        if (request.log.isLevelEnabled('info')) {
            request.log.info({ method: request.method, path: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
        }
        const principal = request.principal;
        if (!principal)
            return;
        this.usage.record(principal.keyId, this.clock.now(), reply.statusCode >= 400).catch((error) => {
            this.logger.warn({ err: error }, 'could not record key usage');
        });
    };
    async limit(bucket, reply, now) {
        this.applyDecision(await this.dependency(() => this.limiter.consume(bucket, this.config.rateLimitPerMinute, credential_gate_1.WINDOW_SECONDS)), reply, now);
    }
    /** The rate headers on every response; past the limit, 429 with retry_after and Retry-After. */
    applyDecision(decision, reply, now) {
        const limit = decision.limit;
        void reply.headers({
            'X-RateLimit-Limit': String(decision.limit),
            'X-RateLimit-Remaining': String(decision.remaining),
            'X-RateLimit-Reset': String(decision.resetAtSeconds),
        });
        if (decision.allowed)
            return;
        const wait = Math.max(1, decision.resetAtSeconds - Math.floor(now.getTime() / 1000));
        throw new domain_error_1.DomainError('rate_limit_exceeded', `Rate limit of ${limit} requests per minute exceeded; retry after ${decision.resetAtSeconds} (Unix time)`, {
            retryAt: decision.resetAtSeconds,
            retryAfterSeconds: wait,
        });
    }
    /** A store that fails or times out becomes a fast 503 with Retry-After, never a hang. */
    async dependency(call) {
        try {
            return await call();
        }
        catch (error) {
            if (error instanceof domain_error_1.DomainError)
                throw error;
            this.logger.warn({ err: { message: error?.message } }, 'authentication or rate-limit store unavailable');
            throw new domain_error_1.DomainError('service_unavailable', 'A backing service is unavailable; retry shortly', { retryAfterSeconds: 1 });
        }
    }
};
exports.RequestGate = RequestGate;
exports.RequestGate = RequestGate = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(app_config_1.APP_CONFIG)),
    __param(2, (0, common_1.Inject)(rate_limiter_port_1.RATE_LIMITER)),
    __param(3, (0, common_1.Inject)(rate_limiter_port_1.KEY_USAGE_STORE)),
    __param(4, (0, common_1.Inject)(clock_1.CLOCK)),
    __metadata("design:paramtypes", [Object, authenticator_1.Authenticator, Object, Object, Object, logging_1.AppLogger])
], RequestGate);
//# sourceMappingURL=request-gate.js.map