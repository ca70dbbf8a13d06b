"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.joinUrl = joinUrl;
exports.getStatus = getStatus;
exports.unexpectedAnswer = unexpectedAnswer;
const provider_validator_port_1 = require("./provider-validator.port");
/** `{base}{path}` with exactly one slash between; `base` may end in a slash or not. */
function joinUrl(base, path) {
    return new URL(`${base.replace(/\/+$/, '')}${path}`);
}
/**
 * One GET that reports only the status: bodies are never read, since providers echo part of a
 * bad key in their error text. Redirects are not followed: fetch would forward a custom header
 * such as xi-api-key to another origin, and a provider API never redirects a key check anyway.
 */
async function getStatus(provider, url, headers, signal, timeoutMs) {
    try {
        const response = await fetch(url, { method: 'GET', headers, signal, redirect: 'manual' });
        await response.body?.cancel().catch(() => undefined);
        return { status: response.status };
    }
    catch (error) {
        if (signal.aborted)
            return { failed: (0, provider_validator_port_1.unreachable)(`${provider} did not answer within ${timeoutMs} ms`) };
        return { failed: (0, provider_validator_port_1.unreachable)(`could not reach ${provider} (${networkErrorCode(error)})`) };
    }
}
/** The system error code only: undici's messages can quote request details. */
function networkErrorCode(error) {
    const cause = error?.cause;
    const code = cause?.code ?? error?.code;
    return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : 'network error';
}
/** Answers that say nothing about the key: a redirect or a server error. */
function unexpectedAnswer(provider, status) {
    return status >= 300 && status < 400
        ? (0, provider_validator_port_1.unreachable)(`${provider} answered with a redirect (HTTP ${status}); check its API base URL`)
        : (0, provider_validator_port_1.unreachable)(`${provider} answered HTTP ${status}`);
}
//# sourceMappingURL=provider-http.js.map