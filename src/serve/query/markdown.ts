/**
 * Markdown of text from outside the program, for the two briefs (`/pipeline` format=brief,
 * src/serve/pipeline/brief.ts; `/signals` format=brief, src/serve/signals/render.ts): one escaping rule,
 * so that raw HTML or a `javascript:` link in a registry title or a request's query stays text.
 */

/**
 * Escapes text from outside (a registry's string, a request's query) for a Markdown line or table cell: newlines become spaces and the
 * characters that Markdown or inline HTML would interpret are backslash-escaped (not `_`:
 * CommonMark ignores intraword underscores, and registry enums are full of them), so a title
 * such as `<script>` or `[x](javascript:...)` stays literal text.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    // `&` only when it starts an entity reference, which Markdown would decode.
    .replace(/[\\`*{}[\]()<>#|!~]|&(?=#?[A-Za-z0-9]+;)/g, (c) => `\\${c}`);
}
