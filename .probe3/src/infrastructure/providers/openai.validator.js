"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.OpenAiValidator = void 0;
exports.classifyOpenAiStatus = classifyOpenAiStatus;
const provider_http_1 = require("./provider-http");
const provider_validator_port_1 = require("./provider-validator.port");
/** Asks OpenAI whether it knows a key: `GET {base}/models` with the key as a Bearer token. */
class OpenAiValidator {
    options;
    modelsUrl;
    constructor(options) {
        this.options = options;
        this.modelsUrl = (0, provider_http_1.joinUrl)(options.apiBase, '/models');
    }
    async validate(apiKey) {
        const { timeoutMs } = this.options;
        const answer = await (0, provider_http_1.getStatus)('OpenAI', this.modelsUrl, { authorization: `Bearer ${apiKey}` }, AbortSignal.timeout(timeoutMs), timeoutMs);
        return 'failed' in answer ? answer.failed : classifyOpenAiStatus(answer.status);
    }
}
exports.OpenAiValidator = OpenAiValidator;
function classifyOpenAiStatus(status) {
    if (status >= 200 && status < 300)
        return provider_validator_port_1.VALID;
    // OpenAI authenticates before it applies rate limits and quotas (both are per organization),
    // so a 429 means the key was recognised. Answering 503 here would refuse trunks exactly when
    // the customer's account is busy.
    if (status === 429)
        return provider_validator_port_1.VALID;
    if (status === 401 || status === 403)
        return (0, provider_validator_port_1.rejected)('openai_api_key', 'OpenAI rejected the API key');
    if (status >= 400 && status < 500)
        return (0, provider_validator_port_1.rejected)('openai_api_key', `OpenAI refused the API key (HTTP ${status})`);
    return (0, provider_http_1.unexpectedAnswer)('OpenAI', status);
}
//# sourceMappingURL=openai.validator.js.map