/**
 * Format negotiation for `/pipeline` (spec 4.2): the `format` parameter when given, else "a
 * browser receives HTML and other clients receive JSON": HTML only when the `Accept` header
 * prefers `text/html` to `application/json` (prefersHtml).
 */
import Negotiator from 'negotiator';
import type { ParamError } from '../domain/error-object.js';
import { parseFormat, type PipelineFormat } from './params.js';

/**
 * True when the Accept header prefers text/html over application/json (strictly: a tie, a missing
 * header or `*\/*` gives JSON). RFC 9110 12.5.1 negotiation by the maintained `negotiator`
 * package (jshttp, as Express's `accepts`): quality values first, then the most specific range,
 * then the order of the header; among equals the first offered, JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return new Negotiator({ headers: { accept } }).mediaType(['application/json', 'text/html']) === 'text/html';
}

/**
 * The format of a request: `format` (parseFormat: case-insensitive; an unknown value is a
 * ParamError with `allowed`), else `html` when `accept` prefers it (prefersHtml), else `json`.
 */
export function chooseFormat(rawFormat: unknown, accept: string | undefined): PipelineFormat | ParamError {
  const format = parseFormat(rawFormat);
  return format ?? (prefersHtml(accept) ? 'html' : 'json');
}
