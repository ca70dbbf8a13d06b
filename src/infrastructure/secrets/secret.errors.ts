/**
 * Errors of the SecretBox. Messages name the owner and field, never a plaintext or a key.
 * A projection that meets SecretDestroyedError can treat the secret as gone for good;
 * SecretUnavailableError is a bug or a configuration error (wrong MASTER_KEY), not an outage.
 */
export class SecretDestroyedError extends Error {
  constructor(
    readonly ownerId: string,
    readonly field?: string,
  ) {
    super(`the data key of ${ownerId} was destroyed: ${field ?? 'its secrets are'} unrecoverable`);
    this.name = 'SecretDestroyedError';
  }
}

export class SecretUnavailableError extends Error {
  constructor(
    readonly ownerId: string,
    readonly field: string | undefined,
    readonly reason:
      'no data key' | 'data key cannot be unwrapped' | 'authentication failed' | 'malformed' | 'unsupported format',
  ) {
    super(`secret ${field ? `${field} of ` : 'of '}${ownerId} is unavailable: ${reason}`);
    this.name = 'SecretUnavailableError';
  }
}
