/** `reporting-signals score` (work in progress). */
import { UserError } from '../errors.js';

export async function runScore(_options: Record<string, unknown>): Promise<void> {
  throw new UserError('score: not implemented yet');
}
