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
exports.AllExceptionsFilter = void 0;
const common_1 = require("@nestjs/common");
const logging_1 = require("../logging/logging");
const domain_error_1 = require("../../shared/domain-error");
const error_envelope_1 = require("./error-envelope");
const route_table_1 = require("./route-table");
/** The one place where anything thrown becomes the spec's error envelope. */
let AllExceptionsFilter = class AllExceptionsFilter {
    routes;
    logger;
    constructor(routes, logging) {
        this.routes = routes;
        this.logger = logging.for('http');
    }
    catch(exception, host) {
        const ctx = host.switchToHttp();
        const request = ctx.getRequest();
        const reply = ctx.getResponse();
        if (reply.sent)
            return;
        const error = this.toDomainError(exception, request, reply);
        if (error.status >= 500 && error.code !== 'service_unavailable' && error.code !== 'provider_unavailable') {
            this.logger.error({ err: exception, request_id: request.id }, 'unhandled error');
        }
        if (error.details.retryAfterSeconds !== undefined) {
            reply.header('Retry-After', String(Math.max(1, Math.ceil(error.details.retryAfterSeconds))));
        }
        void reply.status(error.status).type('application/json; charset=utf-8').send((0, error_envelope_1.envelopeOf)(error, String(request.id)));
    }
    toDomainError(exception, request, reply) {
        if (exception instanceof domain_error_1.DomainError)
            return exception;
        if (exception instanceof common_1.HttpException) {
            const status = exception.getStatus();
            if (status === 404)
                return this.notFoundOrWrongMethod(request, reply);
            return (0, error_envelope_1.domainErrorFromFramework)({ statusCode: status }) ?? new domain_error_1.DomainError('internal_error', 'Internal server error');
        }
        const framework = (0, error_envelope_1.domainErrorFromFramework)(exception);
        return framework ?? new domain_error_1.DomainError('internal_error', 'Internal server error');
    }
    notFoundOrWrongMethod(request, reply) {
        const allowed = this.routes.allowedMethods(request.url);
        if (allowed.length === 0)
            return new domain_error_1.DomainError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`);
        reply.header('Allow', allowed.join(', '));
        return new domain_error_1.DomainError('method_not_allowed', `${request.method} is not allowed here; allowed: ${allowed.join(', ')}`);
    }
};
exports.AllExceptionsFilter = AllExceptionsFilter;
exports.AllExceptionsFilter = AllExceptionsFilter = __decorate([
    (0, common_1.Catch)(),
    __param(0, (0, common_1.Inject)(route_table_1.RouteTable)),
    __metadata("design:paramtypes", [route_table_1.RouteTable,
        logging_1.AppLogger])
], AllExceptionsFilter);
//# sourceMappingURL=all-exceptions.filter.js.map