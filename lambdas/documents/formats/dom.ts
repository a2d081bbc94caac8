// The few DOM members the format renderers use, typed here because the project compiles without the DOM lib.
// Parsing is linkedom (already the project's DOM: fast, bundles as plain JS).
import { parseHTML } from 'linkedom';

export interface DomNode {
  nodeType: number;
  textContent: string | null;
  childNodes: ArrayLike<DomNode> & Iterable<DomNode>;
}

export interface DomElement extends DomNode {
  tagName: string;
  children: ArrayLike<DomElement> & Iterable<DomElement>;
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement> & Iterable<DomElement>;
  closest(selector: string): DomElement | null;
}

export interface DomDocument {
  body: DomElement | null;
  documentElement: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement> & Iterable<DomElement>;
}

export function parseDocument(html: string): DomDocument {
  return (parseHTML(html) as unknown as { document: DomDocument }).document;
}

/** A detached list of nodes treated as one parent (loose inline content between blocks). */
export function nodeList(nodes: DomNode[]): DomNode {
  return { nodeType: 11, textContent: nodes.map((n) => n.textContent ?? '').join(''), childNodes: nodes };
}
