"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=projection.js.map