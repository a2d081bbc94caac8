// The html format's CSS inlining: juice's output, byte for byte, without juice's cost.
//
// juice (lambdas/documents/formats/html.ts used it directly) runs one cheerio query over the whole document per CSS
// selector: ~130 selectors × ~500 elements for the factura, about a third of an html request. This module runs
// juice's own algorithm (its parser, cheerio wrapper, specificity, cascade and variable resolution are reused from
// juice/lib, with the options the html format uses: removeStyleTags false, preserveImportant, applyStyleTags and
// juice's defaults otherwise) but matches each rule with a css-select query compiled once per selector text, tried
// only on the elements that can match its rightmost compound (same tag, class or id; every element for `*`).
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
      ...(query ? { match: query.match, key: query.key } : { key: '' }),
    });
  }
  return remember(stylesheets, css, plans, 64);
}

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

/** juice's per-element output: the style attribute, width/height attributes, legacy table attributes. */
function writeAttributes(el: Element): void {
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
  if (style) el.attribs.style = style;
  const name = el.name.toUpperCase();
  for (const dimension of ['width', 'height'] as const) {
    if (!DIMENSION_ELEMENTS[dimension].includes(name)) continue;
    for (const key in el.styleProps) {
      const p = el.styleProps[key]!;
      if (p.prop !== dimension) continue;
      const value = removeImportant(p.value);
      if (/(px|auto)/.test(value)) {
        el.attribs[dimension] = value.replace('px', '');
        break;
      }
      if (TABLE.includes(name) && /%/.test(value)) {
        el.attribs[dimension] = value;
        break;
      }
    }
  }
  if (!TABLE.includes(name)) return;
  for (const key in el.styleProps) {
    const p = el.styleProps[key]!;
    if (!STYLE_ATTRIBUTE_PROPS.includes(p.prop)) continue;
    const attribute = STYLE_TO_ATTRIBUTE[p.prop]!;
    let value = removeImportant(p.value);
    if (attribute === 'background')
      value = value.indexOf('url(') !== 0 ? value : value.replace(/^url\((["'])?([^"']+)\1\)$/, '$2');
    if (/(linear|radial)-gradient\(/i.test(value)) continue;
    el.attribs[attribute] = value;
  }
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
  for (const rule of plans) {
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
      if (!el.styleProps) {
        el.styleProps = {};
        const inline = el.attribs.style ? styleAttribute(el.attribs.style) : null;
        if (inline) addProps(el, inline.declarations, inline.positions, STYLE_ATTRIBUTE_SELECTOR);
        edited.push(el);
      }
      addProps(el, rule.declarations, rule.positions, rule.selector);
    }
  }
  for (const el of edited) writeAttributes(el);
  return $;
}

/** The html format's inlining: identical to `juice(html, { removeStyleTags: false, preserveImportant: true,
 * applyStyleTags: true })` (see the header for the one exception). */
export function inlineCss(html: string): string {
  return juiceCheerio(html, { xmlMode: undefined }, inlineDocument, []);
}
