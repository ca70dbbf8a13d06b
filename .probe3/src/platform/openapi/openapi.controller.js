"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.OpenApiController = exports.OpenApiDocument = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
/** Holds the description generated from the controllers and DTOs at start-up. */
class OpenApiDocument {
    document = null;
}
exports.OpenApiDocument = OpenApiDocument;
let OpenApiController = class OpenApiController {
    holder;
    constructor(holder) {
        this.holder = holder;
    }
    get() {
        return this.holder.document ?? {};
    }
};
exports.OpenApiController = OpenApiController;
__decorate([
    (0, common_1.Get)('openapi.json'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Object)
], OpenApiController.prototype, "get", null);
exports.OpenApiController = OpenApiController = __decorate([
    (0, swagger_1.ApiExcludeController)(),
    (0, common_1.Controller)('v1'),
    __metadata("design:paramtypes", [OpenApiDocument])
], OpenApiController);
//# sourceMappingURL=openapi.controller.js.map