import { ApiProperty } from '@nestjs/swagger';

/** An account as every route answers it (create, get, list). */
export class AccountDto {
  @ApiProperty({ example: 'acct_…' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}
