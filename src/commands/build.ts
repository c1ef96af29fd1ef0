/** `reporting-signals build` (work in progress). */
import { UserError } from '../errors.js';

export async function runBuild(_options: Record<string, unknown>): Promise<void> {
  throw new UserError('build: not implemented yet');
}
