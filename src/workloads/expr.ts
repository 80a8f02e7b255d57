// The small arithmetic language of workload files: shapes and operator parameters written as
// `64`, `"$hidden"`, `"graph.rows"` or `"(1 - $damping) / graph.rows"`. Parsed once, evaluated
// when a workload is bound to data. Never `eval`: a file is data, not code.

/** What an expression can refer to when it is evaluated. */
export interface ExprScope {
  /** `$name` */
  param(name: string): number | undefined;
  /** `input.rows`, `input.cols`, `input.nnz` */
  dim(input: string, field: 'rows' | 'cols' | 'nnz'): number | undefined;
}

export type Expr =
  | { readonly t: 'num'; readonly v: number }
  | { readonly t: 'param'; readonly name: string }
  | { readonly t: 'dim'; readonly input: string; readonly field: 'rows' | 'cols' | 'nnz' }
  | { readonly t: 'neg'; readonly e: Expr }
  | { readonly t: 'bin'; readonly op: '+' | '-' | '*' | '/'; readonly l: Expr; readonly r: Expr };

const TOKEN =
  /\s*(?:(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|(\$[A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*)\.(rows|cols|nnz)\b|([-+*/()]))/y;

/**
 * Parse an expression (a number, or a string in the grammar above). Returns an error message
 * instead of throwing so callers can attach the file and field to it.
 */
export function parseExpr(source: unknown): Expr | string {
  if (typeof source === 'number') return Number.isFinite(source) ? { t: 'num', v: source } : `must be finite, got ${source}`;
  if (typeof source !== 'string') return `must be a number or an expression string, got ${typeof source}`;
  const tokens: string[][] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < source.length) {
    if (/^\s*$/.test(source.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(source);
    if (!m) {
      const bad = at + (/^\s*/.exec(source.slice(at))?.[0].length ?? 0);
      return `cannot read ${JSON.stringify(source)} at character ${bad + 1}`;
    }
    if (m[1] !== undefined && !Number.isFinite(Number(m[1]))) return `the number ${m[1]} is not finite`;
    tokens.push(m.slice(1));
    at = TOKEN.lastIndex;
  }
  let i = 0;
  const peekOp = (): string | undefined => tokens[i]?.[4];
  const primary = (): Expr | string => {
    const tok = tokens[i++];
    if (!tok) return `ends early in ${JSON.stringify(source)}`;
    const [num, param, input, field, op] = tok;
    if (num !== undefined) return { t: 'num', v: Number(num) };
    if (param !== undefined) return { t: 'param', name: param.slice(1) };
    if (input !== undefined) return { t: 'dim', input, field: field as 'rows' | 'cols' | 'nnz' };
    if (op === '-') {
      const e = primary();
      return typeof e === 'string' ? e : { t: 'neg', e };
    }
    if (op === '(') {
      const e = sum();
      if (typeof e === 'string') return e;
      if (tokens[i++]?.[4] !== ')') return `missing ")" in ${JSON.stringify(source)}`;
      return e;
    }
    return `unexpected ${JSON.stringify(op)} in ${JSON.stringify(source)}`;
  };
  const product = (): Expr | string => {
    let l = primary();
    while (typeof l !== 'string' && (peekOp() === '*' || peekOp() === '/')) {
      const op = tokens[i++]![4] as '*' | '/';
      const r = primary();
      if (typeof r === 'string') return r;
      l = { t: 'bin', op, l, r };
    }
    return l;
  };
  const sum = (): Expr | string => {
    let l = product();
    while (typeof l !== 'string' && (peekOp() === '+' || peekOp() === '-')) {
      const op = tokens[i++]![4] as '+' | '-';
      const r = product();
      if (typeof r === 'string') return r;
      l = { t: 'bin', op, l, r };
    }
    return l;
  };
  if (tokens.length === 0) return 'is empty';
  const e = sum();
  if (typeof e !== 'string' && i < tokens.length) return `unexpected text after the expression in ${JSON.stringify(source)}`;
  return e;
}

/** Names an expression refers to (params and inputs), for validation before binding. */
export function exprRefs(e: Expr, out: { params: Set<string>; inputs: Set<string> }): void {
  switch (e.t) {
    case 'param':
      out.params.add(e.name);
      break;
    case 'dim':
      out.inputs.add(e.input);
      break;
    case 'neg':
      exprRefs(e.e, out);
      break;
    case 'bin':
      exprRefs(e.l, out);
      exprRefs(e.r, out);
      break;
    default:
  }
}

/** Value of an expression; an error message when a name is unknown or the result not finite. */
export function evalExpr(e: Expr, scope: ExprScope): number | string {
  switch (e.t) {
    case 'num':
      return e.v;
    case 'param':
      return scope.param(e.name) ?? `unknown parameter $${e.name}`;
    case 'dim':
      return scope.dim(e.input, e.field) ?? `unknown input ${e.input}`;
    case 'neg': {
      const v = evalExpr(e.e, scope);
      return typeof v === 'string' ? v : -v;
    }
    case 'bin': {
      const l = evalExpr(e.l, scope);
      if (typeof l === 'string') return l;
      const r = evalExpr(e.r, scope);
      if (typeof r === 'string') return r;
      const v = e.op === '+' ? l + r : e.op === '-' ? l - r : e.op === '*' ? l * r : l / r;
      return Number.isFinite(v) ? v : `evaluates to ${v}`;
    }
  }
}
