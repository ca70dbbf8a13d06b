"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ElevenLabsValidator = void 0;
const provider_http_1 = require("./provider-http");
const provider_validator_port_1 = require("./provider-validator.port");
const PROVIDER = 'ElevenLabs';
/** Key check (`GET /user`), then agent check (`GET /convai/agents/{id}`), key in `xi-api-key`. */
class ElevenLabsValidator {
    options;
    userUrl;
    constructor(options) {
        this.options = options;
        this.userUrl = (0, provider_http_1.joinUrl)(options.apiBase, '/user');
    }
    async validate(apiKey, agentId) {
        const { timeoutMs } = this.options;
        const signal = AbortSignal.timeout(timeoutMs);
        const headers = { 'xi-api-key': apiKey };
        const user = await (0, provider_http_1.getStatus)(PROVIDER, this.userUrl, headers, signal, timeoutMs);
        if ('failed' in user)
            return user.failed;
        const keyResult = classifyKeyStatus(user.status);
        if (!keyResult.ok)
            return keyResult;
        const agentUrl = (0, provider_http_1.joinUrl)(this.options.apiBase, `/convai/agents/${encodeURIComponent(agentId)}`);
        const agent = await (0, provider_http_1.getStatus)(PROVIDER, agentUrl, headers, signal, timeoutMs);
        return 'failed' in agent ? agent.failed : classifyAgentStatus(agent.status);
    }
}
exports.ElevenLabsValidator = ElevenLabsValidator;
function classifyKeyStatus(status) {
    if (status >= 200 && status < 300)
        return provider_validator_port_1.VALID;
    // Rate limits apply after authentication: the key is known; go on to the agent check.
    if (status === 429)
        return provider_validator_port_1.VALID;
    if (status >= 400 && status < 500)
        return (0, provider_validator_port_1.rejected)('elevenlabs_api_key', `ElevenLabs rejected the API key${status === 401 ? '' : ` (HTTP ${status})`}`);
    return (0, provider_http_1.unexpectedAnswer)(PROVIDER, status);
}
function classifyAgentStatus(status) {
    if (status >= 200 && status < 300)
        return provider_validator_port_1.VALID;
    if (status === 401 || status === 403)
        return (0, provider_validator_port_1.rejected)('elevenlabs_api_key', 'ElevenLabs does not let this API key read the agent');
    if (status === 404)
        return (0, provider_validator_port_1.rejected)('elevenlabs_agent_id', 'ElevenLabs has no agent with this id for this API key');
    // Unlike the key check, a 429 here proves nothing about the agent: ask the client to retry.
    if (status === 429)
        return (0, provider_validator_port_1.unreachable)('ElevenLabs rate-limited the agent check; retry later');
    if (status >= 400 && status < 500)
        return (0, provider_validator_port_1.rejected)('elevenlabs_agent_id', `ElevenLabs refused the agent id (HTTP ${status})`);
    return (0, provider_http_1.unexpectedAnswer)(PROVIDER, status);
}
//# sourceMappingURL=elevenlabs.validator.js.map