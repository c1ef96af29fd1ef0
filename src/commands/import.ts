/** `reporting-signals import` (work in progress). */
import { UserError } from '../errors.js';

export async function runImport(_options: Record<string, unknown>): Promise<void> {
  throw new UserError('import: not implemented yet');
}
