"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LiveProviderValidator = void 0;
const format_provider_validator_1 = require("./format.provider-validator");
/**
 * PROVIDER_VALIDATION=live: asks the provider. The format check runs first, so a malformed key is
 * refused without a request, and nothing that could break an HTTP header ever reaches one.
 */
class LiveProviderValidator {
    openai;
    elevenlabs;
    custom;
    mode = 'live';
    constructor(openai, elevenlabs, custom) {
        this.openai = openai;
        this.elevenlabs = elevenlabs;
        this.custom = custom;
    }
    async validate(credentials) {
        switch (credentials.provider) {
            case 'openai': {
                const format = (0, format_provider_validator_1.checkCredentialFormat)(credentials);
                return format.ok ? this.openai.validate(credentials.apiKey) : format;
            }
            case 'elevenlabs': {
                const format = (0, format_provider_validator_1.checkCredentialFormat)(credentials);
                return format.ok ? this.elevenlabs.validate(credentials.apiKey, credentials.agentId) : format;
            }
            case 'custom':
                // Runs the same format check itself, then the optional handshake probe.
                return this.custom.validate(credentials.endpoint);
        }
    }
}
exports.LiveProviderValidator = LiveProviderValidator;
//# sourceMappingURL=live.provider-validator.js.map