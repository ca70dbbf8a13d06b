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
exports.IngestionLifecycle = void 0;
const common_1 = require("@nestjs/common");
const call_ingestion_service_1 = require("./call-ingestion.service");
const call_record_writer_1 = require("./call-record.writer");
/** On shutdown, whatever was queued is written before ClickHouse closes. */
let IngestionLifecycle = class IngestionLifecycle {
    writer;
    constructor(writer) {
        this.writer = writer;
    }
    async beforeApplicationShutdown() {
        await this.writer.drain();
    }
};
exports.IngestionLifecycle = IngestionLifecycle;
exports.IngestionLifecycle = IngestionLifecycle = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(call_ingestion_service_1.CALL_RECORD_WRITER)),
    __metadata("design:paramtypes", [call_record_writer_1.CallRecordWriter])
], IngestionLifecycle);
//# sourceMappingURL=ingestion.lifecycle.js.map