"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.RequestValidationPipe = void 0;
const common_1 = require("@nestjs/common");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const domain_error_1 = require("../../shared/domain-error");
/**
 * Validates bodies and query strings against their DTO classes. A bad body field is
 * `400 missing_required_field` naming the field (decisions.md), a bad query parameter
 * `400 invalid_params`. Unknown fields are refused, not silently dropped: a typo in a
 * provisioning script should fail loudly.
 */
let RequestValidationPipe = class RequestValidationPipe {
    async transform(value, metadata) {
        const type = metadata.metatype;
        if (!type || !isDtoClass(type) || (metadata.type !== 'body' && metadata.type !== 'query'))
            return value;
        const code = metadata.type === 'body' ? 'missing_required_field' : 'invalid_params';
        if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
            throw new domain_error_1.DomainError(code, metadata.type === 'body' ? 'Request body must be a JSON object' : 'Invalid query string');
        }
        if (metadata.type === 'query')
            rejectRepeatedParameters(value);
        const instance = (0, class_transformer_1.plainToInstance)(type, value, { enableImplicitConversion: false, exposeDefaultValues: true });
        const errors = await (0, class_validator_1.validate)(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
        if (errors.length > 0) {
            const { param, message, code: specific } = describe(errors[0]);
            throw new domain_error_1.DomainError(specific ?? code, message, { param });
        }
        return instance;
    }
};
exports.RequestValidationPipe = RequestValidationPipe;
exports.RequestValidationPipe = RequestValidationPipe = __decorate([
    (0, common_1.Injectable)()
], RequestValidationPipe);
function isDtoClass(type) {
    return typeof type === 'function' && ![String, Boolean, Number, Array, Object].includes(type);
}
function rejectRepeatedParameters(query) {
    for (const [name, value] of Object.entries(query)) {
        if (Array.isArray(value))
            throw new domain_error_1.DomainError('invalid_params', `Query parameter ${name} is given more than once`, { param: name });
    }
}
/** Type errors first: "must be a string" says more than a pattern mismatch of a number. */
const PRIORITY = ['whitelistValidation', 'isDefined', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'nestedValidation'];
function describe(error, path = '') {
    const param = path ? `${path}.${error.property}` : error.property;
    if (error.children && error.children.length > 0)
        return describe(error.children[0], param);
    const constraints = error.constraints ?? {};
    if (constraints.whitelistValidation)
        return { param, message: `Unknown field: ${param}` };
    if (error.value === undefined)
        return { param, message: `${param} is required` };
    const key = PRIORITY.find((k) => k in constraints) ?? Object.keys(constraints)[0];
    const message = (key && constraints[key]) || `${param} is invalid`;
    const code = error.contexts?.[key]?.code;
    return { param, message, code };
}
//# sourceMappingURL=request-validation.pipe.js.map