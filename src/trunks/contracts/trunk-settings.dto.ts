import { isIP } from 'node:net';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  registerDecorator,
  ValidationOptions,
} from 'class-validator';

/** Server VAD parameters, named as OpenAI's realtime API names them. */
export class VadDto {
  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Speech probability threshold' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'vad.threshold must be a number from 0 to 1' })
  @Min(0, { message: 'vad.threshold must be a number from 0 to 1' })
  @Max(1, { message: 'vad.threshold must be a number from 0 to 1' })
  threshold?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 5000 })
  @IsOptional()
  @IsInt({ message: 'vad.prefix_padding_ms must be an integer from 0 to 5000' })
  @Min(0, { message: 'vad.prefix_padding_ms must be an integer from 0 to 5000' })
  @Max(5000, { message: 'vad.prefix_padding_ms must be an integer from 0 to 5000' })
  prefix_padding_ms?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 10000 })
  @IsOptional()
  @IsInt({ message: 'vad.silence_duration_ms must be an integer from 0 to 10000' })
  @Min(0, { message: 'vad.silence_duration_ms must be an integer from 0 to 10000' })
  @Max(10000, { message: 'vad.silence_duration_ms must be an integer from 0 to 10000' })
  silence_duration_ms?: number;
}

export class ProviderSettingsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, description: 'Model name, e.g. a realtime model' })
  @IsOptional()
  @IsString({ message: 'provider_settings.model must be a string' })
  @Length(1, 100, { message: 'provider_settings.model must be 1-100 characters' })
  model?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @IsOptional()
  @IsString({ message: 'provider_settings.voice must be a string' })
  @Length(1, 100, { message: 'provider_settings.voice must be 1-100 characters' })
  voice?: string;
}

/** An IPv4 or IPv6 address or CIDR block: `203.0.113.0/24`, `2001:db8::/32`, `198.51.100.7`. */
export function isCidr(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 64) return false;
  const [address, prefix, extra] = value.split('/');
  if (extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export function IsCidrList(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isCidrList',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => Array.isArray(value) && value.length <= 100 && value.every(isCidr),
        defaultMessage: () => `${propertyName} must be a list of at most 100 IPv4/IPv6 addresses or CIDR blocks`,
      },
    });
}
