/**
 * The error of a read at request time that failed in the storage: a corrupt or unreadable block
 * of the store (src/serve/generation/generation.ts `read`), or the narrative index file beside it
 * truncated or unreadable (src/serve/narratives/file-range.ts). The routes answer 503 with its
 * message in the Error object, Retry-After and no-store (src/http/resource.ts), and the generation
 * is marked broken (`/readyz` 503) until the store is replaced or reloaded.
 */
export class StoreReadError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreReadError';
  }
}
