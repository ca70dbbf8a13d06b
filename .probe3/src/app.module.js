"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var AppModule_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.AppModule = void 0;
const common_1 = require("@nestjs/common");
const core_1 = require("@nestjs/core");
const cqrs_1 = require("@nestjs/cqrs");
const infrastructure_module_1 = require("./infrastructure/infrastructure.module");
const admin_bootstrap_1 = require("./platform/auth/admin-bootstrap");
const authenticator_1 = require("./platform/auth/authenticator");
const credential_gate_1 = require("./platform/auth/credential-gate");
const request_gate_1 = require("./platform/auth/request-gate");
const app_config_1 = require("./platform/config/app-config");
const health_controller_1 = require("./platform/health/health.controller");
const all_exceptions_filter_1 = require("./platform/http/all-exceptions.filter");
const route_table_1 = require("./platform/http/route-table");
const logging_1 = require("./platform/logging/logging");
const openapi_controller_1 = require("./platform/openapi/openapi.controller");
const read_models_service_1 = require("./projections/read-models.service");
const accounts_queries_1 = require("./read/accounts/accounts.queries");
const accounts_controller_1 = require("./read/accounts/http/accounts.controller");
const api_key_lookup_1 = require("./read/api-keys/api-key.lookup");
const api_keys_queries_1 = require("./read/api-keys/api-keys.queries");
const api_keys_controller_1 = require("./read/api-keys/http/api-keys.controller");
const clock_1 = require("./shared/clock");
const create_account_handler_1 = require("./write/accounts/create-account.handler");
const accounts_controller_2 = require("./write/accounts/http/accounts.controller");
const api_key_handlers_1 = require("./write/api-keys/api-key.handlers");
const api_keys_controller_2 = require("./write/api-keys/http/api-keys.controller");
const command_runner_1 = require("./write/command-runner");
const gateway_controller_1 = require("./read/gateway/http/gateway.controller");
const gateway_queries_1 = require("./read/gateway/gateway.queries");
const trunk_history_queries_1 = require("./read/trunk-history/trunk-history.queries");
const trunks_controller_1 = require("./read/trunks/http/trunks.controller");
const clickhouse_trunk_stats_1 = require("./read/trunks/clickhouse-trunk-stats");
const call_ingestion_service_1 = require("./ingestion/call-ingestion.service");
const call_record_writer_1 = require("./ingestion/call-record.writer");
const ingest_controller_1 = require("./ingestion/http/ingest.controller");
const clickhouse_port_1 = require("./infrastructure/clickhouse/clickhouse.port");
const calls_controller_1 = require("./read/calls/http/calls.controller");
const calls_queries_1 = require("./read/calls/calls.queries");
const analytics_controller_1 = require("./read/analytics/http/analytics.controller");
const analytics_queries_1 = require("./read/analytics/analytics.queries");
const ingestion_lifecycle_1 = require("./ingestion/ingestion.lifecycle");
const trunk_stats_port_1 = require("./read/trunks/trunk-stats.port");
const trunk_queries_1 = require("./read/trunks/trunk.queries");
const reservation_service_1 = require("./write/reservations/reservation.service");
const create_trunk_handler_1 = require("./write/trunks/create-trunk.handler");
const delete_trunk_handler_1 = require("./write/trunks/delete-trunk.handler");
const trunks_controller_2 = require("./write/trunks/http/trunks.controller");
const rotate_sip_password_handler_1 = require("./write/trunks/rotate-sip-password.handler");
const trunk_support_1 = require("./write/trunks/trunk-support");
const update_trunk_handler_1 = require("./write/trunks/update-trunk.handler");
let AppModule = AppModule_1 = class AppModule {
    static forRoot(config, options) {
        const configModule = {
            module: class ConfigModule {
            },
            global: true,
            providers: [{ provide: app_config_1.APP_CONFIG, useValue: config }, { provide: clock_1.CLOCK, useValue: clock_1.systemClock }, { provide: logging_1.AppLogger, useValue: new logging_1.AppLogger(options.logger) }],
            exports: [app_config_1.APP_CONFIG, clock_1.CLOCK, logging_1.AppLogger],
        };
        return {
            module: AppModule_1,
            imports: [configModule, cqrs_1.CqrsModule.forRoot(), infrastructure_module_1.InfrastructureModule],
            controllers: [
                health_controller_1.HealthController,
                openapi_controller_1.OpenApiController,
                accounts_controller_2.AccountsWriteController,
                accounts_controller_1.AccountsReadController,
                api_keys_controller_2.ApiKeysWriteController,
                api_keys_controller_1.ApiKeysReadController,
                trunks_controller_2.TrunksWriteController,
                trunks_controller_1.TrunksReadController,
                gateway_controller_1.GatewayController,
                ingest_controller_1.IngestController,
                calls_controller_1.CallsController,
                analytics_controller_1.AnalyticsController,
            ],
            providers: [
                { provide: core_1.APP_FILTER, useClass: all_exceptions_filter_1.AllExceptionsFilter },
                route_table_1.RouteTable,
                openapi_controller_1.OpenApiDocument,
                command_runner_1.CommandRunner,
                read_models_service_1.ReadModels,
                api_key_lookup_1.ApiKeyLookup,
                authenticator_1.Authenticator,
                credential_gate_1.CredentialGate,
                request_gate_1.RequestGate,
                admin_bootstrap_1.AdminBootstrap,
                create_account_handler_1.CreateAccountHandler,
                accounts_queries_1.ListAccountsHandler,
                accounts_queries_1.GetAccountHandler,
                api_key_handlers_1.IssueApiKeyHandler,
                api_key_handlers_1.RevokeApiKeyHandler,
                api_keys_queries_1.ListApiKeysHandler,
                reservation_service_1.Reservations,
                trunk_support_1.TrunkSupport,
                { provide: trunk_stats_port_1.TRUNK_STATS_READER, useClass: clickhouse_trunk_stats_1.ClickHouseTrunkStats },
                { provide: call_ingestion_service_1.CALL_RECORD_WRITER, inject: [clickhouse_port_1.CLICKHOUSE], useFactory: (clickhouse) => new call_record_writer_1.CallRecordWriter(clickhouse) },
                call_ingestion_service_1.CallIngestion,
                ingestion_lifecycle_1.IngestionLifecycle,
                calls_queries_1.ListCallsHandler,
                calls_queries_1.GetCallHandler,
                analytics_queries_1.GetAnalyticsOverviewHandler,
                create_trunk_handler_1.CreateTrunkHandler,
                update_trunk_handler_1.UpdateTrunkHandler,
                rotate_sip_password_handler_1.RotateSipPasswordHandler,
                delete_trunk_handler_1.DeleteTrunkHandler,
                trunk_queries_1.ListTrunksHandler,
                trunk_queries_1.GetTrunkHandler,
                trunk_history_queries_1.GetTrunkHistoryHandler,
                trunk_history_queries_1.GetTrunkAsOfHandler,
                gateway_queries_1.LookupGatewayTrunkHandler,
            ],
        };
    }
};
exports.AppModule = AppModule;
exports.AppModule = AppModule = AppModule_1 = __decorate([
    (0, common_1.Module)({})
], AppModule);
//# sourceMappingURL=app.module.js.map