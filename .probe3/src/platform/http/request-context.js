"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Ctx = exports.eventMetadata = void 0;
exports.accountOf = accountOf;
const common_1 = require("@nestjs/common");
const domain_error_1 = require("../../shared/domain-error");
/** Who acted and under which request: recorded on every event the request causes. */
const eventMetadata = (ctx) => ({ actor: ctx.principal.keyId, correlation_id: ctx.requestId });
exports.eventMetadata = eventMetadata;
/** The account the calling key belongs to; the gate guarantees one on account routes. */
function accountOf(ctx) {
    if (!ctx.principal.accountId)
        throw new domain_error_1.DomainError('forbidden', 'This key is not bound to an account');
    return ctx.principal.accountId;
}
exports.Ctx = (0, common_1.createParamDecorator)((_, execution) => {
    const request = execution.switchToHttp().getRequest();
    if (!request.principal)
        throw new domain_error_1.DomainError('missing_authentication', 'Missing Authorization header');
    return { principal: request.principal, requestId: String(request.id) };
});
//# sourceMappingURL=request-context.js.map