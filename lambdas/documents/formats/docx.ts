// docx (docx 9.x): the rendered HTML mapped onto Word's own structures, so the file is editable text rather than
// a picture of a page: h1–h6 → Heading 1–6, p/div → paragraphs, strong/b, em/i, u, s, code, sup/sub → run
// formatting, a → hyperlinks, ul/ol → bulleted/numbered lists (nested), table → a Word table (header row
// repeated on each page, bold, shaded), blockquote → indented, pre → monospace, hr → a rule, br → line break.
// Images, scripts, styles and SVG are left out. CSS is not interpreted (Word styles are used instead).
import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from 'docx';
import { CONTENT_TYPES } from '../core/formats';
import { htmlTitle } from '../templating/html';
import { nodeList, parseDocument, type DomElement, type DomNode } from './dom';
import type { DocumentModel, RenderedFile } from './types';

type Block = Paragraph | Table;

interface RunStyle {
  bold?: boolean;
  italics?: boolean;
  underline?: boolean;
  strike?: boolean;
  code?: boolean;
  superScript?: boolean;
  subScript?: boolean;
}

interface BlockContext {
  /** List nesting: kind of each enclosing list. */
  lists: ('ul' | 'ol')[];
  quote: number;
  pre: boolean;
}

const SKIP = new Set([
  'SCRIPT',
  'STYLE',
  'HEAD',
  'TITLE',
  'SVG',
  'IMG',
  'TEMPLATE',
  'NOSCRIPT',
  'IFRAME',
  'OBJECT',
]);
const BLOCK = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'HEADER',
  'FOOTER',
  'MAIN',
  'ASIDE',
  'NAV',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'UL',
  'OL',
  'LI',
  'TABLE',
  'BLOCKQUOTE',
  'PRE',
  'HR',
  'FIGURE',
  'FIGCAPTION',
  'ADDRESS',
  'DL',
  'DT',
  'DD',
  'FORM',
  'FIELDSET',
  'CAPTION',
]);
const HEADINGS: Record<string, (typeof HeadingLevel)[keyof typeof HeadingLevel]> = {
  H1: HeadingLevel.HEADING_1,
  H2: HeadingLevel.HEADING_2,
  H3: HeadingLevel.HEADING_3,
  H4: HeadingLevel.HEADING_4,
  H5: HeadingLevel.HEADING_5,
  H6: HeadingLevel.HEADING_6,
};

/** What an inline element adds to the run style of its text (other tags add nothing). */
const TAG_STYLES: Record<string, Partial<RunStyle>> = {
  ...Object.fromEntries(['STRONG', 'B', 'TH'].map((t) => [t, { bold: true }])),
  ...Object.fromEntries(['EM', 'I', 'CITE', 'DFN'].map((t) => [t, { italics: true }])),
  ...Object.fromEntries(['U', 'INS'].map((t) => [t, { underline: true }])),
  ...Object.fromEntries(['S', 'DEL', 'STRIKE'].map((t) => [t, { strike: true }])),
  ...Object.fromEntries(['CODE', 'KBD', 'SAMP', 'TT'].map((t) => [t, { code: true }])),
  SUP: { superScript: true },
  SUB: { subScript: true },
};

function styleFor(tag: string, base: RunStyle): RunStyle {
  const added = TAG_STYLES[tag];
  return added ? { ...base, ...added } : base;
}

function textRun(text: string, style: RunStyle, extra: { break?: number } = {}): TextRun {
  return new TextRun({
    text,
    bold: style.bold,
    italics: style.italics,
    underline: style.underline ? {} : undefined,
    strike: style.strike,
    superScript: style.superScript,
    subScript: style.subScript,
    font: style.code ? 'Consolas' : undefined,
    ...extra,
  });
}

/** Inline content of `node` as runs; whitespace collapsed as a browser would (kept inside <pre>). */
function inlineRuns(node: DomNode, style: RunStyle, pre: boolean): ParagraphChild[] {
  const out: ParagraphChild[] = [];
  // Adjacent text nodes (the parser splits text at entities) become one run.
  let text = '';
  const flushText = () => {
    if (!text) return;
    if (pre) {
      text
        .split('\n')
        .forEach((line: string, i: number) => out.push(textRun(line, style, i > 0 ? { break: 1 } : {})));
    } else {
      const t = text.replace(/\s+/g, ' ');
      if (t) out.push(textRun(t, style));
    }
    text = '';
  };
  for (const child of [...node.childNodes]) {
    if (child.nodeType === 3) {
      text += child.textContent ?? '';
      continue;
    }
    flushText();
    if (child.nodeType !== 1) continue;
    const el = child as DomElement;
    if (SKIP.has(el.tagName)) continue;
    if (el.tagName === 'BR') {
      out.push(textRun('', style, { break: 1 }));
      continue;
    }
    const inner = inlineRuns(el, styleFor(el.tagName, style), pre || el.tagName === 'PRE');
    const href = el.tagName === 'A' ? el.getAttribute('href') : null;
    if (href && /^(https?:|mailto:)/i.test(href)) {
      out.push(new ExternalHyperlink({ link: href, children: inner.filter((r) => r instanceof TextRun) }));
    } else {
      out.push(...inner);
    }
  }
  flushText();
  return out;
}

/** Drops leading/trailing blank runs so paragraphs do not start with a space. */
function hasText(node: DomNode): boolean {
  return (node.textContent ?? '').trim().length > 0;
}

function tableBlock(table: DomElement, ctx: BlockContext): Table | undefined {
  const rows = [...table.querySelectorAll('tr')].filter((tr) => tr.closest('table') === table);
  if (rows.length === 0) return undefined;
  const width = Math.max(...rows.map((r) => [...r.children].filter((c) => /^T[HD]$/.test(c.tagName)).length));
  if (width === 0) return undefined;
  const border = { style: BorderStyle.SINGLE, size: 4, color: 'B8C2CC' };
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    borders: {
      top: border,
      bottom: border,
      left: border,
      right: border,
      insideHorizontal: border,
      insideVertical: border,
    },
    rows: rows.map((tr) => {
      const cells = [...tr.children].filter((c) => /^T[HD]$/.test(c.tagName));
      const isHeader =
        cells.length > 0 && cells.every((c) => c.tagName === 'TH') && tr.closest('tfoot') === null;
      const children = cells.map((c) => {
        const span = Math.max(1, Number(c.getAttribute('colspan') ?? 1) || 1);
        const cellStyle: RunStyle = c.tagName === 'TH' ? { bold: true } : {};
        const align = (c.getAttribute('style') ?? '')
          .match(/text-align:\s*(right|center)/i)?.[1]
          ?.toLowerCase();
        const hasBlocks = [...c.children].some((ch) => BLOCK.has(ch.tagName));
        const content: Block[] = hasBlocks
          ? blocksOf(c, { ...ctx, lists: [] }, cellStyle)
          : [
              new Paragraph({
                alignment:
                  align === 'right'
                    ? AlignmentType.RIGHT
                    : align === 'center'
                      ? AlignmentType.CENTER
                      : undefined,
                children: inlineRuns(c, cellStyle, false),
              }),
            ];
        return new TableCell({
          columnSpan: span,
          shading: isHeader ? { type: ShadingType.CLEAR, color: 'auto', fill: 'E8EEF5' } : undefined,
          children: content.length ? content : [new Paragraph('')],
        });
      });
      return new TableRow({ tableHeader: isHeader, children });
    }),
  });
}

/** Block content of `node`: loose inline content is gathered into paragraphs between block children. */
function blocksOf(node: DomNode, ctx: BlockContext, style: RunStyle = {}): Block[] {
  const out: Block[] = [];
  let pending: DomNode[] = [];
  const flush = () => {
    if (
      pending.some(hasText) ||
      pending.some((n) => n.nodeType === 1 && (n as DomElement).tagName === 'BR')
    ) {
      const holder = nodeList(pending);
      out.push(paragraph(inlineRuns(holder, style, ctx.pre), ctx));
    }
    pending = [];
  };
  for (const child of [...node.childNodes]) {
    if (child.nodeType === 1) {
      const el = child as DomElement;
      if (SKIP.has(el.tagName)) continue;
      if (BLOCK.has(el.tagName)) {
        flush();
        out.push(...blockOf(el, ctx, style));
        continue;
      }
    }
    pending.push(child);
  }
  flush();
  return out;
}

function paragraph(
  children: ParagraphChild[],
  ctx: BlockContext,
  extra: Record<string, unknown> = {},
): Paragraph {
  return new Paragraph({
    children,
    indent: ctx.quote ? { left: 567 * ctx.quote } : undefined,
    ...extra,
  });
}

function blockOf(el: DomElement, ctx: BlockContext, style: RunStyle): Block[] {
  const tag = el.tagName;
  if (HEADINGS[tag]) {
    return [new Paragraph({ heading: HEADINGS[tag], children: inlineRuns(el, style, false) })];
  }
  switch (tag) {
    case 'UL':
    case 'OL':
      return blocksOf(el, { ...ctx, lists: [...ctx.lists, tag === 'UL' ? 'ul' : 'ol'] }, style);
    case 'LI': {
      const level = Math.max(0, ctx.lists.length - 1);
      const kind = ctx.lists[ctx.lists.length - 1] ?? 'ul';
      const inline: DomNode[] = [];
      const nested: DomElement[] = [];
      for (const c of [...el.childNodes]) {
        if (c.nodeType === 1 && ((c as DomElement).tagName === 'UL' || (c as DomElement).tagName === 'OL'))
          nested.push(c as DomElement);
        else inline.push(c);
      }
      const holder = nodeList(inline);
      const item = new Paragraph({
        children: inlineRuns(holder, style, false),
        ...(kind === 'ul' ? { bullet: { level } } : { numbering: { reference: 'ordered', level } }),
      });
      return [item, ...nested.flatMap((n) => blockOf(n, ctx, style))];
    }
    case 'TABLE': {
      const caption = el.querySelector('caption');
      const t = tableBlock(el, ctx);
      const blocks: Block[] = [];
      if (caption && hasText(caption))
        blocks.push(new Paragraph({ children: inlineRuns(caption, { ...style, bold: true }, false) }));
      if (t) blocks.push(t, new Paragraph(''));
      return blocks;
    }
    case 'CAPTION':
      return [];
    case 'BLOCKQUOTE':
      return blocksOf(el, { ...ctx, quote: ctx.quote + 1 }, { ...style, italics: true });
    case 'PRE':
      return [paragraph(inlineRuns(el, { ...style, code: true }, true), ctx)];
    case 'HR':
      return [
        new Paragraph({
          children: [],
          border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: '999999', space: 1 } },
        }),
      ];
    case 'DT':
      return blocksOf(el, ctx, { ...style, bold: true });
    case 'DD':
      return blocksOf(el, { ...ctx, quote: ctx.quote + 1 }, style);
    case 'P':
      return hasText(el) ? [paragraph(inlineRuns(el, style, false), ctx)] : [];
    default:
      return blocksOf(el, ctx, style);
  }
}

export async function htmlToDocx(html: string, title?: string): Promise<Buffer> {
  const document = parseDocument(html);
  const root = document.body ?? document.documentElement;
  const children = root ? blocksOf(root, { lists: [], quote: 0, pre: false }) : [];
  const doc = new Document({
    title: title ?? htmlTitle(html) ?? 'Documento',
    creator: 'Documentos',
    styles: { default: { document: { run: { font: 'Calibri', size: 22 } } } },
    numbering: {
      config: [
        {
          reference: 'ordered',
          levels: Array.from({ length: 9 }, (_, level) => ({
            level,
            format: LevelFormat.DECIMAL,
            text: `%${level + 1}.`,
            alignment: AlignmentType.START,
            style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
          })),
        },
      ],
    },
    sections: [{ children: children.length ? children : [new Paragraph('')] }],
  });
  return Packer.toBuffer(doc);
}

export async function renderDocx(model: DocumentModel): Promise<RenderedFile> {
  return {
    bytes: await htmlToDocx(model.html, model.title),
    contentType: CONTENT_TYPES.docx,
    extension: 'docx',
  };
}
