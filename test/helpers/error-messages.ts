// Finds every human message an error answer of either service can carry, by reading the sources (TypeScript's own
// parser): the message argument of each error construction (`new NotFound(…)`, `invalid(loc, msg, type)`, the
// renderers' and readers' own error classes whose message reaches a caller), each `msg:` of a validation item and
// each custom zod message. A message is reduced to its shapes: literal text with holes where a value is computed
// (`${n}`, a variable), one shape per branch of a `?:`. test/unit/error-catalogue.test.ts checks that every shape is
// matched by an entry of the error catalogue (lambdas/shared/i18n/error-catalogue.ts), i.e. has Spanish text.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** A hole: computed text inside a message. */
export const HOLE = '\u0000';

/** Classes whose constructor's message may reach a caller, and which argument holds it. */
const MESSAGE_ARG: Record<string, number> = {
  InvalidRequest: 0,
  Unauthenticated: 0,
  PaymentRequired: 0,
  Forbidden: 0,
  NotFound: 0,
  Conflict: 0,
  Gone: 0,
  QuotaExceeded: 0,
  Unavailable: 0,
  HttpError: 1,
  RenderInputError: 0,
  RenderTimeoutError: 0,
  TemplateError: 1,
  PdfRejected: 1,
  NoArticleError: 1,
  NothingToNarrateError: 0,
  SsmlError: 2,
  CfdiXmlError: 0,
  MarcaError: 0,
  SafeFetchError: 1,
};

export interface MessageSite {
  file: string;
  line: number;
  /** Literal text with HOLE where a value is computed. */
  shape: string;
}

const MAX_SHAPES = 64;

function concat(a: string[], b: string[]): string[] {
  const out: string[] = [];
  for (const x of a) for (const y of b) if (out.length < MAX_SHAPES) out.push(x + y);
  return out;
}

/** The shapes an expression's string value can take (one HOLE for anything computed). */
function shapesOf(node: ts.Expression, depth = 0): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node))
    return shapesOf(node.expression, depth);
  if (ts.isTemplateExpression(node)) {
    let acc = [node.head.text];
    for (const span of node.templateSpans)
      acc = concat(concat(acc, shapesOf(span.expression, depth)), [span.literal.text]);
    return acc;
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
    return concat(shapesOf(node.left, depth), shapesOf(node.right, depth));
  if (ts.isConditionalExpression(node))
    return [...shapesOf(node.whenTrue, depth), ...shapesOf(node.whenFalse, depth)];
  if (
    ts.isBinaryExpression(node) &&
    [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(node.operatorToken.kind)
  )
    return [...shapesOf(node.left, depth), ...shapesOf(node.right, depth)];
  if (depth >= 4) return [HOLE];
  if (ts.isIdentifier(node)) {
    const found = resolve(node.text, node);
    if (found?.kind === 'value') return shapesOf(found.node, depth + 1);
    if (found?.kind === 'param') {
      const args = callArguments(found.fn, found.index);
      if (args.length) return args.flatMap((a) => shapesOf(a, depth + 1));
    }
    return [HOLE];
  }
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
    const found = resolve(node.expression.text, node);
    if (found?.kind === 'function') {
      const returns = functionReturns(found.node);
      if (returns.length) return returns.flatMap((r) => shapesOf(r, depth + 1));
    }
    return [HOLE];
  }
  // WHY[status] with WHY a constant object: any of its values.
  if (ts.isElementAccessExpression(node) && ts.isIdentifier(node.expression)) {
    const found = resolve(node.expression.text, node);
    if (found?.kind === 'value' && ts.isObjectLiteralExpression(found.node))
      return found.node.properties.flatMap((p) =>
        ts.isPropertyAssignment(p) ? shapesOf(p.initializer, depth + 1) : [HOLE],
      );
    return [HOLE];
  }
  return [HOLE];
}

type Found =
  | { kind: 'value'; node: ts.Expression }
  | { kind: 'function'; node: ts.FunctionLikeDeclaration }
  | { kind: 'param'; fn: ts.FunctionLikeDeclaration; index: number };

function declared(name: string, statements: readonly ts.Statement[]): Found | undefined {
  for (const st of statements) {
    if (ts.isFunctionDeclaration(st) && st.name?.text === name && st.body)
      return { kind: 'function', node: st };
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations)
        if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer) {
          if (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))
            return { kind: 'function', node: d.initializer };
          if (st.declarationList.flags & ts.NodeFlags.Const) return { kind: 'value', node: d.initializer };
          return undefined;
        }
  }
  return undefined;
}

/** The declaration `name` refers to at `from`: the nearest enclosing scope, then the file, then a relative import. */
function resolve(name: string, from: ts.Node): Found | undefined {
  for (let n: ts.Node | undefined = from.parent; n; n = n.parent) {
    if (ts.isFunctionLike(n)) {
      const index = n.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === name);
      if (index >= 0) return { kind: 'param', fn: n as ts.FunctionLikeDeclaration, index };
    }
    if (ts.isBlock(n) || ts.isSourceFile(n) || ts.isModuleBlock(n) || ts.isCaseClause(n)) {
      const found = declared(name, n.statements);
      if (found) return found;
    }
    if (ts.isSourceFile(n)) return imported(name, n);
  }
  return undefined;
}

const parsed = new Map<string, ts.SourceFile | null>();
function parse(path: string): ts.SourceFile | null {
  if (!parsed.has(path)) {
    let file: ts.SourceFile | null = null;
    for (const candidate of [path, `${path}.ts`, join(path, 'index.ts')])
      if (existsSync(candidate) && statSync(candidate).isFile()) {
        file = ts.createSourceFile(candidate, readFileSync(candidate, 'utf8'), ts.ScriptTarget.Latest, true);
        break;
      }
    parsed.set(path, file);
  }
  return parsed.get(path)!;
}

function imported(name: string, file: ts.SourceFile): Found | undefined {
  for (const st of file.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const spec = st.moduleSpecifier.text;
    const named = st.importClause?.namedBindings;
    if (!spec.startsWith('.') || !named || !ts.isNamedImports(named)) continue;
    const el = named.elements.find((e) => e.name.text === name);
    if (!el) continue;
    const target = parse(join(dirname(file.fileName), spec));
    return target ? declared((el.propertyName ?? el.name).text, target.statements) : undefined;
  }
  return undefined;
}

/** The arguments at `index` of every call of `fn` in its file (a helper such as `fail(msg, type)`). */
function callArguments(fn: ts.FunctionLikeDeclaration, index: number): ts.Expression[] {
  const name =
    fn.name && ts.isIdentifier(fn.name)
      ? fn.name.text
      : ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name)
        ? fn.parent.name.text
        : undefined;
  if (!name) return [];
  const out: ts.Expression[] = [];
  const visit = (n: ts.Node) => {
    if (
      ts.isCallExpression(n) &&
      ts.isIdentifier(n.expression) &&
      n.expression.text === name &&
      n.arguments[index]
    )
      out.push(n.arguments[index]);
    ts.forEachChild(n, visit);
  };
  visit(fn.getSourceFile());
  return out;
}

function functionReturns(fn: ts.FunctionLikeDeclaration): ts.Expression[] {
  const body = fn.body;
  if (!body) return [];
  if (!ts.isBlock(body)) return [body as ts.Expression];
  const out: ts.Expression[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isReturnStatement(n) && n.expression) out.push(n.expression);
    if (!ts.isFunctionLike(n)) ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return out;
}

/** Property names whose (string) value is a message: validation items, answers' details, refusals, stored reasons. */
const MESSAGE_PROPERTIES = new Set(['msg', 'detail', 'timeoutDetail', 'refusal']);

function messageNodes(file: ts.SourceFile): ts.Expression[] {
  const out: ts.Expression[] = [];
  const messageClass = (n: ts.ClassLikeDeclaration) =>
    n.heritageClauses?.some((h) =>
      h.types.some((t) => ts.isIdentifier(t.expression) && t.expression.text in MESSAGE_ARG),
    );
  const visit = (n: ts.Node) => {
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text in MESSAGE_ARG) {
      const arg = n.arguments?.[MESSAGE_ARG[n.expression.text]!];
      if (arg) out.push(arg);
    } else if (ts.isCallExpression(n)) {
      const callee = n.expression;
      // super(message) in a class extending one of them
      if (callee.kind === ts.SyntaxKind.SuperKeyword && n.arguments[0]) {
        const cls = ts.findAncestor(n, ts.isClassLike);
        const parent = cls?.heritageClauses?.[0]?.types[0]?.expression;
        if (cls && messageClass(cls) && parent && ts.isIdentifier(parent)) {
          const arg = n.arguments[MESSAGE_ARG[parent.text]!];
          if (arg) out.push(arg);
        }
      }
      // invalid(loc, msg, type)
      if (ts.isIdentifier(callee) && callee.text === 'invalid' && n.arguments[1]) out.push(n.arguments[1]);
      // A failed job's reason, answered later by GET /audio/{id} (409): deps.audio.fail(id, reason)
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'fail' && n.arguments.length === 2)
        out.push(n.arguments[1]!);
      // zod: .refine(check, 'message') / .refine(check, { message }) / .regex(re, { message }) / z.email({ message })
      if (ts.isPropertyAccessExpression(callee) && ['refine', 'regex', 'email'].includes(callee.name.text)) {
        for (const arg of n.arguments) {
          if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) out.push(arg);
          if (ts.isObjectLiteralExpression(arg))
            for (const p of arg.properties)
              if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'message')
                out.push(p.initializer);
        }
      }
      // ctx.addIssue({ message })
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'addIssue')
        for (const arg of n.arguments)
          if (ts.isObjectLiteralExpression(arg))
            for (const p of arg.properties)
              if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'message')
                out.push(p.initializer);
    } else if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && MESSAGE_PROPERTIES.has(n.name.text)) {
      const v = n.initializer;
      if (ts.isArrowFunction(v) || ts.isFunctionExpression(v)) out.push(...functionReturns(v));
      else out.push(v);
    } else if (ts.isShorthandPropertyAssignment(n) && MESSAGE_PROPERTIES.has(n.name.text)) {
      out.push(n.name);
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      // Browser code of the pages (its own wording) and the generated bundles are not API answers.
      if (name === 'node_modules' || name === 'site' || name === 'api-reference') continue;
      out.push(...sourceFiles(path));
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.includes('.generated.'))
      out.push(path);
  }
  return out;
}

/** Every message site under `dirs` (relative to `root`), with its shapes. */
export function scanErrorMessages(root: string, dirs = ['lambdas', 'templates']): MessageSite[] {
  const sites: MessageSite[] = [];
  for (const dir of dirs)
    for (const path of sourceFiles(join(root, dir))) {
      const file = parse(path)!;
      for (const node of messageNodes(file)) {
        const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        for (const shape of new Set(shapesOf(node))) sites.push({ file: relative(root, path), line, shape });
      }
    }
  return sites;
}
