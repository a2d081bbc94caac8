// The html format's CSS inlining: juice's output, byte for byte, without juice's cost.
//
// juice (lambdas/documents/formats/html.ts used it directly) runs one cheerio query over the whole document per CSS
// selector: ~130 selectors × ~500 elements for the factura, about a third of an html request. This module runs
// juice's own algorithm (its parser, cheerio wrapper, specificity, cascade and variable resolution are reused from
// juice/lib, with the options the html format uses: removeStyleTags false, preserveImportant, applyStyleTags and
// juice's defaults otherwise) but matches each rule with a css-select query compiled once per selector text, tried
// only on the elements that can match its rightmost compound (same tag, class or id; every element for `*`).
// Elements alike (the cells of every row: same tag, style attribute, matched rules and custom properties in scope)
// replay the outcome computed for the first of them instead of running juice's cascade again (memo per stylesheet).
// Selectors cheerio treats specially (jQuery positionals such as :first or :eq(), :scope, a leading combinator, or
// anything css-select cannot compile) go through cheerio exactly as juice sends them.
// One deliberate difference: juice throws on a style attribute without declarations (`style=" "`) when a rule also
// matches the element; here such an attribute counts as empty, as in a browser.
// test/unit/inline-css.test.ts compares the output with juice's on every built-in template and a corpus of edge cases.
import type { CheerioAPI } from 'cheerio';
import { compile } from 'css-select';
import { parse as parseSelector, SelectorType, type Selector as Token } from 'css-what';
import juiceCheerio from 'juice/lib/cheerio';
import juiceClient from 'juice/client';
import { parseCSS, Property, Selector, type Declaration } from 'juice/lib/utils';
import { replaceVariables } from 'juice/lib/variables';

/** A DOM element as juice leaves it while inlining (domhandler's Element plus juice's cascade state). */
interface Element {
  type: string;
  name: string;
  attribs: Record<string, string>;
  parent: Element | null;
  styleProps?: Record<string, Property>;
  /** Indices (into the stylesheet's plans) of the rules that matched, in cascade order of application. */
  matched?: number[];
  /** This element's rules or style attribute declare custom properties (`--x`), which descendants' var() read. */
  definesVariables?: boolean;
  /** The custom properties in scope (see envKey); null when they cannot key a memo. */
  env?: string | null;
}

/** How a rule finds its elements: a compiled css-select query on the candidates of `key`, or cheerio's $(). */
interface Plan {
  text: string;
  selector: Selector;
  declarations: Declaration[];
  /** [line, column] of each declaration: juice's tie-break between equal specificities. */
  positions: number[][];
  match?: (el: Element) => boolean;
  /** 'tag:td', 'class:kv', 'id:x' (lower case) or '*' for every element. */
  key: string;
  /** The rule declares custom properties. */
  variables: boolean;
}

const POSITIONALS = new Set(['first', 'last', 'eq', 'gt', 'nth', 'lt', 'even', 'odd']); // cheerio-select's filters
const NON_VISUAL = new Set(juiceClient.nonVisualElements.map(String));
const TABLE = juiceClient.tableElements.map(String);
const DIMENSION_ELEMENTS = {
  width: juiceClient.widthElements.map(String),
  height: juiceClient.heightElements.map(String),
};
const STYLE_TO_ATTRIBUTE = juiceClient.styleToAttribute;
const STYLE_ATTRIBUTE_PROPS = Object.keys(STYLE_TO_ATTRIBUTE);

const MAX_CACHED = 2_000;
const compiled = new Map<string, ((el: Element) => boolean) | null>();
const stylesheets = new Map<string, Plan[]>();
const inlineStyles = new Map<string, { declarations: Declaration[]; positions: number[][] } | null>();

function remember<V>(cache: Map<string, V>, key: string, value: V, max = MAX_CACHED): V {
  if (cache.size >= max) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

function isCheerioSpecial(groups: Token[][]): boolean {
  const special = (t: Token): boolean =>
    t.type === SelectorType.Pseudo &&
    (POSITIONALS.has(t.name) ||
      t.name === 'scope' ||
      (Array.isArray(t.data) && t.data.some((g) => g.some(special))));
  return groups.some(
    (g) =>
      g.length === 0 || (isTraversal(g[0]!) && g[0]!.type !== SelectorType.Descendant) || g.some(special),
  );
}

function isTraversal(t: Token): boolean {
  return (
    t.type === SelectorType.Adjacent ||
    t.type === SelectorType.Child ||
    t.type === SelectorType.Descendant ||
    t.type === SelectorType.Parent ||
    t.type === SelectorType.Sibling ||
    t.type === SelectorType.ColumnCombinator
  );
}

/** The index key of a selector's rightmost compound: an id, else a class, else a tag, else every element. */
function indexKey(groups: Token[][]): string {
  if (groups.length !== 1) return '*';
  const g = groups[0]!;
  let start = g.length;
  while (start > 0 && !isTraversal(g[start - 1]!)) start--;
  const compound = g.slice(start);
  for (const t of compound)
    if (t.type === SelectorType.Attribute && t.name === 'id' && t.action === 'equals')
      return `id:${t.value.toLowerCase()}`;
  for (const t of compound)
    if (t.type === SelectorType.Attribute && t.name === 'class' && t.action === 'element')
      return `class:${t.value.toLowerCase()}`;
  for (const t of compound) if (t.type === SelectorType.Tag) return `tag:${t.name.toLowerCase()}`;
  return '*';
}

/** A css-select query for a selector text, or null when cheerio must answer it (see the header). */
function compiledQuery(text: string): { match: (el: Element) => boolean; key: string } | null {
  let groups: Token[][];
  try {
    groups = parseSelector(text);
  } catch {
    return null;
  }
  if (isCheerioSpecial(groups)) return null;
  let match = compiled.get(text);
  if (match === undefined) {
    try {
      // cacheResults off: the per-query WeakSet of non-matching ancestors costs more (GC) than walking a
      // document's few levels, and a cached query outlives the document.
      match = compile<Element, Element>(text, { cacheResults: false }) as (el: Element) => boolean;
    } catch {
      match = null;
    }
    remember(compiled, text, match);
  }
  return match ? { match, key: indexKey(groups) } : null;
}

function plan(css: string): Plan[] {
  const cached = stylesheets.get(css);
  if (cached) return cached;
  const plans: Plan[] = [];
  for (const [text, declarations] of parseCSS(css)) {
    const selector = new Selector(text);
    // slick's parse (array-like), as juice checks it.
    const parsed = selector.parsed();
    if (!parsed) continue;
    const compounds = Array.from(parsed);
    const pseudosOf = (i: number) => Array.from(compounds[i]?.pseudos ?? []);
    // ::before/::after rules style pseudo elements that juice only inserts with inlinePseudoElements (off): skip.
    if (pseudosOf(compounds.length - 1).some((p) => p.name === 'before' || p.name === 'after')) continue;
    if (compounds.some((_, i) => pseudosOf(i).some((p) => juiceClient.ignoredPseudos.includes(p.name))))
      continue;
    const query = compiledQuery(text);
    plans.push({
      text,
      selector,
      declarations,
      positions: positionsOf(declarations),
      variables: declaresVariables(declarations),
      ...(query ? { match: query.match, key: query.key } : { key: '' }),
    });
  }
  return remember(stylesheets, css, plans, 64);
}

const declaresVariables = (declarations: Declaration[]) => declarations.some((d) => d.name.startsWith('--'));

const positionsOf = (declarations: Declaration[]) =>
  declarations.map((d) => [d.position.start.line, d.position.start.col]);

/** A style attribute's declarations, parsed as juice parses them (`* { <value> }`); null when it has none. */
function styleAttribute(value: string): { declarations: Declaration[]; positions: number[][] } | null {
  let parsed = inlineStyles.get(value);
  if (parsed === undefined) {
    const declarations = parseCSS(`* { ${value} } `)[0]?.[1];
    parsed = remember(
      inlineStyles,
      value,
      declarations ? { declarations, positions: positionsOf(declarations) } : null,
    );
  }
  return parsed;
}

/**
 * juice's Property#compareFunc without its two arrays per call: (specificity + !important, line, column) compared
 * in that order; 1 when `a` wins.
 */
function cascade(a: Property, b: Property): number {
  const sa = a.selector.specificity();
  const sb = b.selector.specificity();
  const first = sa[0]! + a.priority - (sb[0]! + b.priority);
  if (first !== 0) return first > 0 ? 1 : -1;
  for (let i = 1; i < 4; i++) if (sa[i] !== sb[i]) return sa[i]! > sb[i]! ? 1 : -1;
  const pa = a.additionalPriority;
  const pb = b.additionalPriority;
  for (let i = 0; i < Math.min(pa.length, pb.length); i++)
    if (pa[i] !== pb[i]) return pa[i]! > pb[i]! ? 1 : -1;
  return pa.length - pb.length;
}

const removeImportant = (value: string) => value.replace(/\s*!important$/, '');

function addProps(el: Element, declarations: Declaration[], positions: number[][], selector: Selector): void {
  const props = el.styleProps!;
  for (let i = 0; i < declarations.length; i++) {
    const { name, value } = declarations[i]!;
    if (juiceClient.excludedProperties.includes(name)) continue;
    const prop = new Property(name, value, selector, /!important$/.test(value) ? 2 : 0, positions[i]);
    const existing = props[name];
    if (!existing || cascade(existing, prop) !== 1) {
      // Deleting moves the property to the end of the style attribute, as juice does.
      if (existing && existing.selector !== selector) delete props[name];
      else if (existing) prop.nextProp = existing;
      props[name] = prop;
    }
  }
}

/** juice's stand-in selector for a style attribute: above every rule's specificity. */
const STYLE_ATTRIBUTE_SELECTOR = new Selector('<style>', true);

/**
 * juice's per-element output: the style attribute, width/height attributes, legacy table attributes. Returns the
 * attributes it set, in order (what the memo replays on elements with the same rules, see inlineDocument).
 */
function writeAttributes(el: Element): [string, string][] {
  const sets: [string, string][] = [];
  const set = (name: string, value: string) => {
    el.attribs[name] = value;
    sets.push([name, value]);
  };
  const all: Property[] = [];
  for (const key of Object.keys(el.styleProps!)) {
    for (let p: Property | undefined = el.styleProps![key]; p; p = p.nextProp) all.push(p);
  }
  all.sort(cascade);
  const style = all
    .filter((p) => p.prop.indexOf('--') !== 0 && p.prop !== 'content')
    .map((p) => {
      // Without a '(' there is no var() to resolve (replaceVariables returns the value unchanged).
      if (p.value.includes('(')) p.value = replaceVariables(el, p.value);
      return `${p.prop}: ${p.value.replace(/["]/g, "'")};`;
    })
    .join(' ');
  if (style) set('style', style);
  const name = el.name.toUpperCase();
  for (const dimension of ['width', 'height'] as const) {
    if (!DIMENSION_ELEMENTS[dimension].includes(name)) continue;
    for (const key in el.styleProps) {
      const p = el.styleProps[key]!;
      if (p.prop !== dimension) continue;
      const value = removeImportant(p.value);
      if (/(px|auto)/.test(value)) {
        set(dimension, value.replace('px', ''));
        break;
      }
      if (TABLE.includes(name) && /%/.test(value)) {
        set(dimension, value);
        break;
      }
    }
  }
  if (!TABLE.includes(name)) return sets;
  for (const key in el.styleProps) {
    const p = el.styleProps[key]!;
    if (!STYLE_ATTRIBUTE_PROPS.includes(p.prop)) continue;
    const attribute = STYLE_TO_ATTRIBUTE[p.prop]!;
    let value = removeImportant(p.value);
    if (attribute === 'background')
      value = value.indexOf('url(') !== 0 ? value : value.replace(/^url\((["'])?([^"']+)\1\)$/, '$2');
    if (/(linear|radial)-gradient\(/i.test(value)) continue;
    set(attribute, value);
  }
  return sets;
}

function inlineDocument($: CheerioAPI): CheerioAPI {
  // The <style> blocks' text (kept in place), as juice's getStylesData collects it.
  const css: string[] = [];
  $('style').each(function () {
    const nodes = this.childNodes;
    if (nodes.length !== 1) return;
    if ($(this).attr('data-embed') === undefined) css.push((nodes[0] as unknown as { data: string }).data);
    $(this).removeAttr('data-embed');
  });
  const plans = plan(`${css.join('\n')}\n`);

  // Every element juice may style, in document order, indexed by tag, class and id.
  const all: Element[] = [];
  const index = new Map<string, Element[]>();
  const put = (key: string, el: Element) => {
    const list = index.get(key);
    if (list) list.push(el);
    else index.set(key, [el]);
  };
  for (const node of $('*').toArray() as unknown as Element[]) {
    if (node.name && NON_VISUAL.has(node.name.toUpperCase())) continue;
    all.push(node);
    put(`tag:${node.name.toLowerCase()}`, node);
    const id = node.attribs.id;
    if (id !== undefined) put(`id:${id.toLowerCase()}`, node);
    const cls = node.attribs.class;
    if (cls) for (const c of new Set(cls.toLowerCase().split(/\s+/))) if (c) put(`class:${c}`, node);
  }

  const edited: Element[] = [];
  for (let r = 0; r < plans.length; r++) {
    const rule = plans[r]!;
    let els: Element[];
    if (rule.match) {
      els = (rule.key === '*' ? all : (index.get(rule.key) ?? [])).filter(rule.match);
    } else {
      try {
        els = ($(rule.text).toArray() as unknown as Element[]).filter(
          (el) => !(el.name && NON_VISUAL.has(el.name.toUpperCase())),
        );
      } catch {
        continue; // juice skips a selector cheerio cannot run
      }
    }
    for (const el of els) {
      if (!el.matched) {
        el.matched = [];
        edited.push(el);
      }
      el.matched.push(r);
    }
  }

  // juice's cascade (addProps) then output (writeAttributes) per element, in the same order. An element's output is
  // a function of its name, style attribute, matched rules and the custom properties in scope (var()), so elements
  // alike (table cells of every row, say) replay a memo instead of cascading again. Elements that declare custom
  // properties always cascade: their descendants' var() read them (findVariableValue walks up styleProps).
  const memo = memoOf(plans);
  for (const el of edited) {
    const inline = el.attribs.style ? styleAttribute(el.attribs.style) : null;
    el.definesVariables =
      el.matched!.some((r) => plans[r]!.variables) || (!!inline && declaresVariables(inline.declarations));
    if (el.definesVariables) cascadeOnto(el, inline, plans);
  }
  const pending: { el: Element; key?: string }[] = [];
  for (const el of edited) {
    let key: string | undefined;
    if (!el.definesVariables) {
      const env = envKey(el);
      if (env !== null) {
        key = `${el.name}\u0000${el.attribs.style ?? ''}\u0000${el.matched!.join(',')}\u0000${env}`;
        const sets = memo.get(key);
        if (sets) {
          for (const [name, value] of sets) el.attribs[name] = value;
          continue;
        }
      }
      cascadeOnto(el, el.attribs.style ? styleAttribute(el.attribs.style) : null, plans);
    }
    pending.push({ el, key });
  }
  for (const { el, key } of pending) {
    const sets = writeAttributes(el);
    if (key !== undefined) {
      if (memo.size >= MAX_CACHED) memo.clear();
      memo.set(key, sets);
    }
  }
  return $;
}

/** Rule outcomes by element key (see inlineDocument), one memo per stylesheet's plans. */
const memos = new WeakMap<Plan[], Map<string, [string, string][]>>();

function memoOf(plans: Plan[]): Map<string, [string, string][]> {
  let memo = memos.get(plans);
  if (!memo) memos.set(plans, (memo = new Map()));
  return memo;
}

/** juice's cascade for one element: its style attribute first, then its rules in stylesheet order. */
function cascadeOnto(
  el: Element,
  inline: { declarations: Declaration[]; positions: number[][] } | null,
  plans: Plan[],
): void {
  el.styleProps = {};
  if (inline) addProps(el, inline.declarations, inline.positions, STYLE_ATTRIBUTE_SELECTOR);
  for (const r of el.matched!) {
    const rule = plans[r]!;
    addProps(el, rule.declarations, rule.positions, rule.selector);
  }
}

/**
 * The custom properties an element's var() can see: those declared by it and its ancestors, nearest first, as text
 * (cached on each element as `env`). null when one of their values has a function in it (juice resolves such values
 * in place while writing, so what a descendant reads would depend on the order of writing): not memoized then.
 */
function envKey(el: Element): string | null {
  const chain: Element[] = [];
  let x: Element | null = el;
  for (; x && x.env === undefined; x = x.parent) chain.push(x);
  let env: string | null = x ? x.env! : '';
  for (let i = chain.length - 1; i >= 0; i--) {
    const a = chain[i]!;
    if (env !== null && a.definesVariables) {
      let own = '';
      for (const [name, prop] of Object.entries(a.styleProps!)) {
        if (!name.startsWith('--')) continue;
        if (prop.value.includes('(')) {
          own = '\u0000';
          break;
        }
        own += `${name}:${prop.value};`;
      }
      env = own === '\u0000' ? null : `${own}|${env}`;
    }
    a.env = env;
  }
  return env;
}

/** The html format's inlining: identical to `juice(html, { removeStyleTags: false, preserveImportant: true,
 * applyStyleTags: true })` (see the header for the one exception). */
export function inlineCss(html: string): string {
  return juiceCheerio(html, { xmlMode: undefined }, inlineDocument, []);
}
