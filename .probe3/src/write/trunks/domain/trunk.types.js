"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ALL_PROVIDER_FIELDS = exports.FIELDS_OF_PROVIDER = exports.TRUNK_STATUSES = exports.PROVIDERS = void 0;
exports.PROVIDERS = ['openai', 'elevenlabs', 'custom'];
exports.TRUNK_STATUSES = ['active', 'inactive', 'error'];
exports.FIELDS_OF_PROVIDER = {
    openai: ['openai_api_key'],
    elevenlabs: ['elevenlabs_api_key', 'elevenlabs_agent_id'],
    custom: ['custom_endpoint'],
};
exports.ALL_PROVIDER_FIELDS = ['openai_api_key', 'elevenlabs_api_key', 'elevenlabs_agent_id', 'custom_endpoint'];
//# sourceMappingURL=trunk.types.js.map