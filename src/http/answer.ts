/**
 * Sending a rendered 200 answer of a cached resource (/signals, /cases, /analyses, /vaccines):
 * compressed bytes and revalidation.
 *
 * - ETag: weak (`W/"..."`, RFC 9110 8.8.3), 20 hex digits of a SHA-256 over the served store's
 *   build (the X-REPORTS-Build value: program and store) and the resource's normalised query
 *   key, so replicas serving the same store and program give the same tag. A weak tag compares
 *   equal across content encodings, which is what RFC 9110 allows for weak validators.
 * - `If-None-Match` matching the tag (or `*`) -> `304 Not Modified` with the same headers and no body.
 * - Content encoding: brotli or gzip (negotiated from `Accept-Encoding` with q-values, brotli
 *   preferred) for bodies of at least COMPRESS_THRESHOLD bytes, with `Vary: Accept-Encoding` on
 *   every answer of these resources. The compressed bytes are kept beside the cached answer (a
 *   WeakMap keyed by the answer object the service caches), so a cached answer is compressed
 *   once and dropped with it. Other routes are compressed per request by @fastify/compress
 *   (app.ts), which leaves an answer that already has a Content-Encoding alone.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Smallest body compressed, in bytes (bodies over about 1 KB are worth compressing). */
export const COMPRESS_THRESHOLD = 1024;
/** Content codings offered, preferred first. */
export const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];
/** Brotli quality 4, as @fastify/compress's default (11 costs too much time per answer). */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

const negotiator = new Negotiator<Encoding>({ supportedValues: [...ENCODINGS] });

/** A rendered 200 answer: body bytes and its headers (lower-case names). */
export interface RenderedAnswer {
  body: Buffer;
  headers: Record<string, string>;
}

/** What is kept beside a cached answer. */
interface Extras {
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

const extras = new WeakMap<RenderedAnswer, Extras>();

/** Bodies compressed so far by encoding (each cached answer once per encoding; metrics). */
export const compressions: Record<Encoding, number> = { br: 0, gzip: 0 };

/** The weak ETag of an answer of the store build `build` to the normalised request `key`. */
export function etagOf(build: string, key: string): string {
  return `W/"${createHash('sha256').update(build).update('\0').update(key).digest('hex').slice(0, 20)}"`;
}

/** Whether an `If-None-Match` value matches `etag` (weak comparison, RFC 9110 13.1.2). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || tag === etag || tag === opaque || (tag.startsWith('W/') && tag.slice(2) === opaque)) return true;
  }
  return false;
}

/** The content coding to answer `accept` with, or null for identity. */
export function negotiateEncoding(accept: string | undefined): Encoding | null {
  if (!accept) return null;
  return negotiator.negotiate(accept.toLowerCase());
}

function compressed(answer: RenderedAnswer, kept: Extras, encoding: Encoding): Buffer {
  let bytes = kept[encoding];
  if (!bytes) {
    bytes = encoding === 'br' ? brotliCompressSync(answer.body, BROTLI_OPTIONS) : gzipSync(answer.body);
    kept[encoding] = bytes;
    compressions[encoding]++;
  }
  return bytes;
}

/**
 * Sends `answer` (status 200) with its headers, an ETag for (`build`, `key`), `Vary` (default
 * `Accept-Encoding`; a resource that negotiates its format on Accept adds `Accept`), a 304 on a
 * matching If-None-Match, and the negotiated content coding.
 */
export function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: RenderedAnswer, build: string, key: string, vary = 'Accept-Encoding'): FastifyReply {
  let kept = extras.get(answer);
  if (!kept) {
    kept = { etag: etagOf(build, key) };
    extras.set(answer, kept);
  }
  reply.headers(answer.headers).header('etag', kept.etag).header('vary', vary);
  if (noneMatch(request.headers['if-none-match'], kept.etag)) {
    reply.removeHeader('content-type');
    return reply.code(304).send();
  }
  const encoding = answer.body.length >= COMPRESS_THRESHOLD ? negotiateEncoding(request.headers['accept-encoding']) : null;
  if (encoding === null) return reply.send(answer.body);
  return reply.header('content-encoding', encoding).send(compressed(answer, kept, encoding));
}
