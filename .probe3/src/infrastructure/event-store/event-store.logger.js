"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.silentLogger = void 0;
exports.redactCredentials = redactCredentials;
exports.silentLogger = { info: () => undefined, warn: () => undefined };
/** Connection strings may carry a password (`scheme://user:secret@host`); messages never do. */
function redactCredentials(text) {
    return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*):[^@/?#\s]*@/gi, '$1:***@');
}
//# sourceMappingURL=event-store.logger.js.map