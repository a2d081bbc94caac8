// juice's internal modules (juice ships no type declarations; these files are its CommonJS lib/, stable across 11.x),
// used by lambdas/documents/formats/inline-css.ts to run juice's own CSS parsing, specificity and cascade.
declare module 'juice/lib/utils' {
  export interface Declaration {
    type: 'property';
    name: string;
    value: string;
    position: { start: { line: number; col: number } };
  }
  export class Selector {
    constructor(text: string, styleAttribute?: boolean);
    text: string;
    /** slick's parse: one expression per compound selector, or [] when slick cannot parse it. */
    parsed(): ArrayLike<{ pseudos?: ArrayLike<{ name: string }> }> | undefined;
    specificity(): number[];
  }
  export class Property {
    constructor(
      prop: string,
      value: string,
      selector: Selector,
      priority?: number,
      additionalPriority?: number[],
    );
    prop: string;
    value: string;
    selector: Selector;
    /** 2 for !important, else 0. */
    priority: number;
    /** [line, column] of the declaration. */
    additionalPriority: number[];
    nextProp?: Property;
    compareFunc(other: Property): number;
    compare(other: Property): Property;
  }
  /** [selector text, its declarations] per selector of every rule, in source order. */
  export function parseCSS(css: string): [string, Declaration[]][];
}

declare module 'juice/lib/variables' {
  export function replaceVariables(el: unknown, value: string): string;
}

declare module 'juice/lib/cheerio' {
  import type { CheerioAPI } from 'cheerio';
  /** Parses `html` as juice does (code blocks protected, entities kept), calls `callback($)`, serializes. */
  function juiceCheerio(
    html: string,
    options: { xmlMode?: boolean },
    callback: ($: CheerioAPI) => CheerioAPI,
    extraArguments: unknown[],
  ): string;
  export = juiceCheerio;
}

declare module 'juice/client' {
  /** juice without its resource fetching (index.js adds that): the inliner and its element lists. */
  interface JuiceClient {
    (html: string, options?: Record<string, unknown>): string;
    ignoredPseudos: string[];
    widthElements: string[];
    heightElements: string[];
    tableElements: string[];
    nonVisualElements: string[];
    styleToAttribute: Record<string, string>;
    excludedProperties: string[];
  }
  const juiceClient: JuiceClient;
  export = juiceClient;
}
