import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class CreateAccountRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 200, description: 'Display name of the account' })
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1-200 characters' })
  name!: string;
}
