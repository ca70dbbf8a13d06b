"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerJsonParser = registerJsonParser;
const secure_json_parse_1 = __importDefault(require("secure-json-parse"));
const domain_error_1 = require("../../shared/domain-error");
const utf8 = new TextDecoder('utf-8', { fatal: true });
/**
 * JSON bodies: strict UTF-8 (invalid bytes are a 400, not silently replaced), prototype
 * poisoning refused, an empty body treated as absent.
 */
function registerJsonParser(fastify, limits) {
    // Refuse an announced oversized body before reading a byte of it.
    fastify.addHook('preParsing', async (request) => {
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > limitOf(request))
            throw new domain_error_1.DomainError('payload_too_large', `Request body is larger than ${limitOf(request)} bytes`);
    });
    const limitOf = (request) => (limits.isLarge(request.routeOptions.url ?? '') ? limits.largeBytes : limits.defaultBytes);
    fastify.removeContentTypeParser('application/json');
    fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: limits.largeBytes }, (request, body, done) => {
        if (body.length > limitOf(request))
            return done(new domain_error_1.DomainError('payload_too_large', `Request body is larger than ${limitOf(request)} bytes`), undefined);
        if (body.length === 0)
            return done(null, undefined);
        let text;
        try {
            text = utf8.decode(body);
        }
        catch {
            return done(new domain_error_1.DomainError('missing_required_field', 'Request body is not valid UTF-8'), undefined);
        }
        try {
            done(null, secure_json_parse_1.default.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
        }
        catch (error) {
            const detail = error instanceof SyntaxError ? error.message : 'forbidden property name';
            done(new domain_error_1.DomainError('missing_required_field', `Request body is not valid JSON: ${detail}`), undefined);
        }
    });
}
//# sourceMappingURL=json-body.parser.js.map