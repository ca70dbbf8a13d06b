"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.systemClock = exports.CLOCK = void 0;
exports.CLOCK = Symbol('Clock');
exports.systemClock = { now: () => new Date() };
//# sourceMappingURL=clock.js.map