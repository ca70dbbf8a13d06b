"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=trunk.events.js.map