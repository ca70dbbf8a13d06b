"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const app_factory_1 = require("./app.factory");
const app_config_1 = require("./platform/config/app-config");
async function main() {
    let config;
    try {
        config = (0, app_config_1.loadConfig)();
    }
    catch (error) {
        if (error instanceof app_config_1.ConfigError) {
            process.stderr.write(`trunkline: ${error.message}\n`);
            process.exit(2);
        }
        throw error;
    }
    const running = await (0, app_factory_1.createApp)(config);
    const lines = [`Trunkline is listening on ${running.baseUrl}`];
    if (running.tls?.selfSigned)
        lines.push(`  TLS: self-signed certificate ${running.tls.certPath} (curl --cacert it, or -k)`);
    if (config.providerValidation === 'format')
        lines.push('  Provider keys: checked for format only (PROVIDER_VALIDATION=format)');
    if (running.generatedAdminKey) {
        lines.push('', '  Admin API key (shown once, keep it safe; only its hash is stored):', `    ${running.generatedAdminKey}`, '');
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    let stopping = false;
    const stop = (signal) => {
        if (stopping)
            return;
        stopping = true;
        process.stdout.write(`trunkline: ${signal}: finishing in-flight requests\n`);
        running.close().then(() => process.exit(0), (error) => {
            process.stderr.write(`trunkline: shutdown failed: ${String(error)}\n`);
            process.exit(1);
        });
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
}
void main();
//# sourceMappingURL=main.js.map