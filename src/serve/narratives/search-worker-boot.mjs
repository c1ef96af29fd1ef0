// Worker bootstrap of the text search pool when running from TypeScript sources (vitest, tsx):
// registers tsx in the worker thread, then re-exports the worker function. The compiled build
// (dist/) starts dist/serve/narratives/search-worker.js directly and never uses this file.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./search-worker.ts');
export default worker.default;
