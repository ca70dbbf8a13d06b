import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { accountOf, Ctx, eventMetadata, RequestContext } from '../../platform/http/request-context';
import { AlertRuleDto } from '../read/alert-rule.dto';
import { CreateAlertRule, DeleteAlertRule } from '../write/alert-rule.handlers';
import { CreateAlertRuleRequestDto } from '../write/dto/create-alert-rule.request.dto';

@ApiTags('alerts')
@ApiBearerAuth()
@Controller('v1/alert-rules')
export class AlertRulesWriteController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({
    type: AlertRuleDto,
    description:
      'Evaluated every ALERT_EVALUATION_INTERVAL_MS; sends alert.triggered once when the condition starts to hold and alert.resolved once when it stops',
  })
  create(@Body() body: CreateAlertRuleRequestDto, @Ctx() ctx: RequestContext): Promise<AlertRuleDto> {
    return this.commands.execute(new CreateAlertRule(accountOf(ctx), body, eventMetadata(ctx)));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeleteAlertRule(id, accountOf(ctx), eventMetadata(ctx)));
  }
}
