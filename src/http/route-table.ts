/**
 * The route table of `serve`: the resources it serves, in the order the app registers them (the
 * anchors of its API catalog, /.well-known/api-catalog). The CLI's help of `serve` lists them
 * (src/cli.ts), and the app checks when it starts that the routes it registered with
 * `config: { catalog: true }` are exactly these (app.ts), so the help cannot drift from the server.
 * No imports: the CLI reads it without loading the server.
 */
export const SERVED_RESOURCES: readonly string[] = [
  '/signals', '/analyses', '/vaccines', '/cases', '/reports/{vaers_id}', '/triage', '/interactions', '/masking', '/pipeline',
];

/** `/a, /b and /c`: the served resources as the help text names them. */
export function servedResourcesText(): string {
  return `${SERVED_RESOURCES.slice(0, -1).join(', ')} and ${SERVED_RESOURCES[SERVED_RESOURCES.length - 1]}`;
}

/** The difference between the registered catalog anchors and SERVED_RESOURCES, as a message (null: the same, in the same order). */
export function routeTableDrift(catalog: readonly string[]): string | null {
  if (catalog.join('\n') === SERVED_RESOURCES.join('\n')) return null;
  return `the routes registered as resources (${catalog.join(', ')}) differ from the route table src/http/route-table.ts (${SERVED_RESOURCES.join(', ')})`;
}
