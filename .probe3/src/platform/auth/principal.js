"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=principal.js.map