/**
 * Response parts of the query resources' route schemas (`/signals`, `/cases`, `/vaccines` and
 * their `/analyses/{analysis}/...` forms), as data for Fastify and, through @fastify/swagger,
 * /openapi.json: the headers of every 200, the 304 and the Error-object responses.
 */
import { LIMIT_MAX } from './parameters.js';

/**
 * The response headers of every 200 of a query resource (spec 4.1), `X-Total-Count` first with
 * the description `totalCount` (what the resource counts before paging), then the same table for
 * every resource.
 */
export function answerHeaders(totalCount: string) {
  return {
    'X-Total-Count': { type: 'integer', description: totalCount },
    'X-Limit': { type: 'integer', description: `Page size (1 to ${LIMIT_MAX}).` },
    'X-Offset': { type: 'integer', description: 'Rows skipped.' },
    'X-REPORTS-Through': { type: 'string', description: 'Latest quarter in the data (`none` for an empty store).' },
    'X-REPORTS-Build': { type: 'string', pattern: '^api-[0-9a-f]{12} src-.+$', description: 'api-<12 hex digest of the served program and store (it changes when the store is swapped)> src-<first line of the VERSION file written at deploy; dev when absent>.' },
    'X-REPORTS-Hypothesis': { type: 'string', description: 'The voluntary-reporting sentence.' },
    'X-REPORTS-Analysis': { type: 'string', description: 'The analysis answered (GET /analyses lists them; /signals answers the default one).' },
    'Cache-Control': { type: 'string', enum: ['public, max-age=60'] },
    ETag: { type: 'string', pattern: '^W/"[0-9a-f]{20}"$', description: 'Weak validator from X-REPORTS-Build (program and store) and the normalised query: equal on every replica serving the same store; send it back in If-None-Match for a 304.' },
    Vary: { type: 'string', enum: ['Accept-Encoding'], description: 'Bodies of 1 KB or more are sent with Content-Encoding br or gzip when Accept-Encoding allows it.' },
    'Access-Control-Allow-Origin': { type: 'string', enum: ['*'], description: 'CORS: any origin (spec 5), on every answer.' },
    'Access-Control-Expose-Headers': { type: 'string', description: 'CORS: the headers above that a cross-origin page may read (X-Total-Count, X-Limit, X-Offset, X-REPORTS-Through, X-REPORTS-Build, X-REPORTS-Hypothesis, X-REPORTS-Analysis), on every answer.' },
  } as const;
}

/** `304 Not Modified`: the answer to an If-None-Match that matches the ETag (no body; the 200's headers). */
export const NOT_MODIFIED = {
  description: 'Not Modified: If-None-Match matched the ETag (or was *). No body; ETag, Cache-Control, Vary and the X-REPORTS-* headers as on the 200.',
} as const;

/** An Error-object response (spec 2.5) with its `description`: `components/schemas/Error` (registered as `Error#`). */
export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: 'Error#' } } } } as const;
}
