/** Program version, read from package.json at start. */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Version of reporting-signals (package.json). */
export const PROGRAM_VERSION: string = pkg.version;
