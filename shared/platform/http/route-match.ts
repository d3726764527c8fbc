/**
 * Route matching as API Gateway's HTTP API does it: method and path against `{param}` and final greedy
 * `{param+}` segments, static segments winning over parameters. Used by the local gateway, the checkout
 * preflight (which methods a path takes) and the tests' contract check.
 */

/** What matching needs of a route (a `RouteDef` fits). */
export interface RoutePattern {
  readonly method: string;
  /** With `{param}` segments, and optionally a final greedy `{param+}`. */
  readonly path: string;
}

export interface RouteMatch<R extends RoutePattern> {
  readonly route: R;
  readonly routeKey: string;
  readonly pathParameters: Record<string, string>;
}

type Segment = { kind: 'static'; value: string } | { kind: 'param'; name: string } | { kind: 'greedy'; name: string };

interface Compiled<R extends RoutePattern> {
  readonly route: R;
  readonly segments: readonly Segment[];
}

function compile(path: string): Segment[] {
  return path
    .split('/')
    .slice(1)
    .map((part, i, all): Segment => {
      const greedy = /^\{([A-Za-z0-9_.-]+)\+\}$/.exec(part);
      if (greedy) {
        if (i !== all.length - 1) throw new Error(`Greedy parameter must be the last segment of ${path}`);
        return { kind: 'greedy', name: greedy[1]! };
      }
      const param = /^\{([A-Za-z0-9_.-]+)\}$/.exec(part);
      return param ? { kind: 'param', name: param[1]! } : { kind: 'static', value: part };
    });
}

/** A path segment percent-decoded, or as it is when it is not valid percent-encoding. */
export function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function matchSegments(segments: readonly Segment[], parts: readonly string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg.kind === 'greedy') {
      const rest = parts.slice(i);
      if (rest.length === 0 || rest.join('') === '') return null;
      params[seg.name] = decodeSegment(rest.join('/'));
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (seg.kind === 'static') {
      if (part !== seg.value) return null;
    } else {
      if (part === '') return null;
      params[seg.name] = decodeSegment(part);
    }
  }
  return segments.length === parts.length ? params : null;
}

/** Orders candidates like API Gateway: at the first differing segment, static beats `{param}` beats `{param+}`. */
function specificity(a: readonly Segment[], b: readonly Segment[]): number {
  const rank = (s: Segment | undefined) => (s === undefined ? 3 : s.kind === 'static' ? 0 : s.kind === 'param' ? 1 : 2);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = rank(a[i]) - rank(b[i]);
    if (d !== 0) return d;
  }
  return 0;
}

export interface RouteMatcher<R extends RoutePattern> {
  /** The route for `method` and the (raw, still percent-encoded) `path`, or null. */
  match(method: string, path: string): RouteMatch<R> | null;
  /** The methods of the routes whose path matches `path` (empty when no route has that path). */
  methodsOf(path: string): string[];
}

export function routeMatcher<R extends RoutePattern>(routes: readonly R[]): RouteMatcher<R> {
  const compiled: Compiled<R>[] = routes.map((route) => ({ route, segments: compile(route.path) }));
  const keys = new Set<string>();
  for (const { route } of compiled) {
    const key = `${route.method.toUpperCase()} ${route.path.replace(/\{[^}]+\}/g, '{}')}`;
    if (keys.has(key)) throw new Error(`Two routes for ${route.method} ${route.path}`);
    keys.add(key);
  }
  compiled.sort((a, b) => specificity(a.segments, b.segments));
  return {
    match(method, path) {
      const parts = path.split('/').slice(1);
      for (const c of compiled) {
        if (c.route.method.toUpperCase() !== method.toUpperCase() && c.route.method !== 'ANY') continue;
        const pathParameters = matchSegments(c.segments, parts);
        if (pathParameters) return { route: c.route, routeKey: `${c.route.method} ${c.route.path}`, pathParameters };
      }
      return null;
    },
    methodsOf(path) {
      const parts = path.split('/').slice(1);
      return [...new Set(compiled.filter((c) => matchSegments(c.segments, parts)).map((c) => c.route.method.toUpperCase()))];
    },
  };
}
