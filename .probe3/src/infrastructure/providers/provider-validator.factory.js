"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_PROVIDER_TIMEOUT_MS = void 0;
exports.createProviderValidator = createProviderValidator;
const custom_endpoint_validator_1 = require("./custom-endpoint.validator");
const elevenlabs_validator_1 = require("./elevenlabs.validator");
const format_provider_validator_1 = require("./format.provider-validator");
const live_provider_validator_1 = require("./live.provider-validator");
const openai_validator_1 = require("./openai.validator");
exports.DEFAULT_PROVIDER_TIMEOUT_MS = 5000;
/** Format mode never touches the network, not even for the endpoint probe. */
function createProviderValidator(options) {
    if (options.mode === 'format')
        return new format_provider_validator_1.FormatProviderValidator();
    const timeoutMs = options.timeoutMs ?? exports.DEFAULT_PROVIDER_TIMEOUT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
        throw new RangeError('provider validation timeout must be a positive whole number of ms');
    return new live_provider_validator_1.LiveProviderValidator(new openai_validator_1.OpenAiValidator({ apiBase: options.openaiApiBase, timeoutMs }), new elevenlabs_validator_1.ElevenLabsValidator({ apiBase: options.elevenlabsApiBase, timeoutMs }), new custom_endpoint_validator_1.CustomEndpointValidator({ probe: options.probeCustomEndpoints ?? false, timeoutMs, ca: options.ca }));
}
//# sourceMappingURL=provider-validator.factory.js.map