"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.BARE_SPEC_ENV = void 0;
exports.BARE_SPEC_ENV = 'BENCH_BARE_SERVER_SPEC';
//# sourceMappingURL=child-messages.js.map