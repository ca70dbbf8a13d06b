"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.READ_MODEL_STORE = void 0;
exports.READ_MODEL_STORE = Symbol('ReadModelStore');
//# sourceMappingURL=read-model-store.port.js.map