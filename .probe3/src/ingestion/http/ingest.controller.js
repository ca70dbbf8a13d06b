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
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.IngestController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const request_context_1 = require("../../platform/http/request-context");
const call_ingestion_service_1 = require("../call-ingestion.service");
class RejectionDto {
    index;
    id;
    code;
    message;
}
__decorate([
    (0, swagger_1.ApiProperty)({ description: '0-based position of the record in the request' }),
    __metadata("design:type", Number)
], RejectionDto.prototype, "index", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: String }),
    __metadata("design:type", Object)
], RejectionDto.prototype, "id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'invalid_field', description: 'invalid_json, missing_required_field, invalid_field, too_large, unknown_trunk' }),
    __metadata("design:type", String)
], RejectionDto.prototype, "code", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], RejectionDto.prototype, "message", void 0);
class IngestResultDto {
    accepted;
    rejected;
}
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'Records stored durably before this response' }),
    __metadata("design:type", Number)
], IngestResultDto.prototype, "accepted", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: [RejectionDto] }),
    __metadata("design:type", Array)
], IngestResultDto.prototype, "rejected", void 0);
let IngestController = class IngestController {
    ingestion;
    constructor(ingestion) {
        this.ingestion = ingestion;
    }
    ingest(body, ctx) {
        return this.ingestion.ingest((0, request_context_1.accountOf)(ctx), body);
    }
};
exports.IngestController = IngestController;
__decorate([
    (0, common_1.Post)('calls'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiConsumes)('application/x-ndjson', 'application/json'),
    (0, swagger_1.ApiOkResponse)({
        type: IngestResultDto,
        description: 'Up to 10,000 records or 16 MiB. 200 means every accepted record is durable; re-sending an id replaces the call. 503 with Retry-After when saturated.',
    }),
    __param(0, (0, common_1.Body)()),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], IngestController.prototype, "ingest", null);
exports.IngestController = IngestController = __decorate([
    (0, swagger_1.ApiTags)('ingestion'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('v1/ingest'),
    __metadata("design:paramtypes", [call_ingestion_service_1.CallIngestion])
], IngestController);
//# sourceMappingURL=ingest.controller.js.map