/**
 * Errors a user caused (bad file, bad option, bad column). The CLI prints their message
 * without a stack trace and exits with status 1. One wording of a file that cannot be read:
 * fileErrorReason, readUserFile.
 */
import { readFile } from 'node:fs/promises';

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

/**
 * The text (UTF-8) of a file the user named. @throws UserError with `message(reason)` when it
 * cannot be read (the reason: fileErrorReason), e.g. `cannot read the reference set FILE: ENOENT`.
 */
export async function readUserFile(file: string, message: (reason: string) => string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UserError(message(fileErrorReason(error)));
  }
}
