"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=chdb.protocol.js.map