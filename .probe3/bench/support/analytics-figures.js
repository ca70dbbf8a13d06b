"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=analytics-figures.js.map