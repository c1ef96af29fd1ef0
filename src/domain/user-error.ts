/**
 * Errors a user caused (bad file, bad option, bad column). The CLI prints their message
 * without a stack trace and exits with status 1.
 */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}
