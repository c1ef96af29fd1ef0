/**
 * Errors a user caused (bad file, bad option, bad column). The CLI prints their message
 * without a stack trace and exits with status 1. One wording of why a file cannot be read or
 * written: fileErrorReason.
 */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}

/** The short reason of a file-system error as messages give it: its code (`ENOENT`), else its message. */
export function fileErrorReason(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

