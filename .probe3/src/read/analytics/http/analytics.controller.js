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
exports.AnalyticsController = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const swagger_1 = require("@nestjs/swagger");
const request_context_1 = require("../../../platform/http/request-context");
const clock_1 = require("../../../shared/clock");
const analytics_dto_1 = require("../analytics.dto");
const analytics_queries_1 = require("../analytics.queries");
let AnalyticsController = class AnalyticsController {
    queries;
    clock;
    constructor(queries, clock) {
        this.queries = queries;
        this.clock = clock;
    }
    overview(query, ctx) {
        return this.queries.execute(new analytics_queries_1.GetAnalyticsOverview((0, request_context_1.accountOf)(ctx), query, this.clock.now()));
    }
};
exports.AnalyticsController = AnalyticsController;
__decorate([
    (0, common_1.Get)('overview'),
    (0, swagger_1.ApiOkResponse)({
        description: 'period, summary, performance (p95/p99 of per-call total latency, within 1%), quality (codec_distribution in percent of calls reporting a codec), by_provider, by_trunk, timeseries (every bucket, empty ones included)',
    }),
    __param(0, (0, common_1.Query)()),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [analytics_dto_1.AnalyticsQueryDto, Object]),
    __metadata("design:returntype", Promise)
], AnalyticsController.prototype, "overview", null);
exports.AnalyticsController = AnalyticsController = __decorate([
    (0, swagger_1.ApiTags)('analytics'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('v1/analytics'),
    __param(1, (0, common_1.Inject)(clock_1.CLOCK)),
    __metadata("design:paramtypes", [cqrs_1.QueryBus, Object])
], AnalyticsController);
//# sourceMappingURL=analytics.controller.js.map