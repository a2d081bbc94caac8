// xlsx (exceljs): one worksheet per sheet of the model: optional title and subtitle rows, a styled header row (bold,
// white on navy), typed cells with number formats (integers, decimals, money in the column's currency, percent,
// dates), formulas (FormulaCell: references by column key, resolved here, with the exact value cached so viewers
// that do not recalculate show it too), row styles for statements (headings, indented details, subtotals, totals),
// widths fitted to the content, the header frozen and an autofilter on it, a totals row of SUM formulas, and native
// charts of the sheet's own ranges (added after exceljs by xlsx-chart.ts: exceljs has no chart API).
import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { currencyDigits } from '../../../templates/kit/money';
import { CONTENT_TYPES } from '../core/formats';
import { sheetsOf } from './csv';
import { addCharts, sheetRef, type ChartPart, type SheetCharts } from './xlsx-chart';
import {
  cellValue,
  type Cell,
  type Column,
  type RowStyle,
  type SheetModel,
} from '../../../templates/kit/sheet-model';
import type { DocumentModel, RenderedFile } from './types';

const NAVY = 'FF1F3A5F';
const ZEBRA = 'FFF3F6FA';
const BAND = 'FFE8EEF5';
const RULE = 'FFD9E2EC';

const formats = new Map<string, string | undefined>();

/** Number format of a column's cells (memoised: the money format looks up the currency's decimals via Intl). */
export function numFmt(col: Column): string | undefined {
  const key = `${col.kind}:${col.currency ?? ''}`;
  if (!formats.has(key)) formats.set(key, computeNumFmt(col));
  return formats.get(key);
}

function computeNumFmt(col: Column): string | undefined {
  switch (col.kind) {
    case 'integer':
      return '#,##0';
    case 'decimal':
      return '#,##0.00';
    case 'money': {
      const code = (col.currency ?? 'MXN').toUpperCase();
      const digits = currencyDigits(code);
      const n = digits > 0 ? `#,##0.${'0'.repeat(digits)}` : '#,##0';
      // "$" for pesos (es-MX), the ISO code otherwise: "USD 1,234.50".
      return code === 'MXN' ? `"$"${n};-"$"${n}` : `"${code} "${n};-"${code} "${n}`;
    }
    case 'percent':
      return '0.0%';
    case 'date':
      return 'dd/mm/yyyy';
    default:
      return undefined;
  }
}

function excelScalar(value: string | number | null, col: Column): ExcelJS.CellValue {
  if (value === null) return null;
  if (col.kind === 'date' && typeof value === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
    if (m) return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  }
  // Exact decimal text from the model becomes a number in a numeric column.
  if (typeof value === 'string' && col.kind !== 'text' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

function displayLength(value: Cell | undefined, col: Column): number {
  const v = cellValue(value);
  if (v === null || v === '') return 0;
  if (typeof v === 'number' || (col.kind !== 'text' && /^-?\d+(\.\d+)?$/.test(v))) {
    // "1,234.56": integer digits, thousands separators, 2 decimals (no Intl here: it costs ~50 µs a cell).
    const n = Number(v);
    const int = Math.trunc(Math.abs(n)).toString().length;
    const s = int + Math.floor((int - 1) / 3) + (Number.isInteger(n) ? 0 : 3) + (n < 0 ? 1 : 0);
    return s + (col.kind === 'money' ? 5 : col.kind === 'percent' ? 3 : 1);
  }
  return Math.max(...v.split('\n').map((l) => l.length));
}

export function colLetter(n: number): string {
  let s = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}

interface Layout {
  /** The worksheet's final name (sanitised, unique). */
  name: string;
  /** Column letter by key. */
  letters: Map<string, string>;
  headerRow: number;
  firstData: number;
  lastData: number;
  /** Sheet row of the totals row (when there is one). */
  totalsRow: number;
}

/** `{key}`, `{key@3}`, `{key@total}`, `{$key@3}`, `{key@0:last}`, `{Sheet!$key@0:last}` (see FormulaCell). */
const REF = /\{(?:([^{}!]+)!)?(\$?)([A-Za-z_]\w*)(?:@(\d+|total|last)(?::(\d+|total|last))?)?\}/g;

/** A FormulaCell's column-key references → A1 references (`C3`, `$C$3`, `'Ventas'!$D$3:$D$302`). */
export function resolveFormula(
  formula: string,
  layouts: Map<string, Layout>,
  own: Layout,
  row: number,
): string {
  return formula.replace(
    REF,
    (_, sheet: string | undefined, abs: string, key: string, at?: string, to?: string): string => {
      const layout = sheet === undefined ? own : layouts.get(sheet);
      if (!layout) throw new Error(`formula ${formula} refers to an unknown sheet '${sheet}'`);
      const letter = layout.letters.get(key);
      if (!letter) throw new Error(`formula ${formula} refers to an unknown column '${key}'`);
      const rowOf = (a: string | undefined) =>
        a === undefined
          ? row
          : a === 'total'
            ? layout.totalsRow
            : a === 'last'
              ? layout.lastData
              : layout.firstData + Number(a);
      const cell = (r: number) => (abs ? `$${letter}$${r}` : `${letter}${r}`);
      const ref = to === undefined ? cell(rowOf(at)) : `${cell(rowOf(at))}:${cell(rowOf(to))}`;
      return sheet === undefined ? ref : sheetRef(layout.name, ref);
    },
  );
}

function setCell(
  cell: ExcelJS.Cell,
  value: Cell | undefined,
  col: Column,
  ctx: { layouts: Map<string, Layout>; own: Layout },
  row: number,
): void {
  if (value !== null && typeof value === 'object') {
    const result = excelScalar(value.result, col);
    cell.value = {
      formula: resolveFormula(value.formula, ctx.layouts, ctx.own, row),
      result: (result === null ? '' : result) as never,
    } as ExcelJS.CellFormulaValue;
  } else {
    cell.value = excelScalar(value ?? null, col);
  }
  const fmt = numFmt(col);
  if (fmt) cell.numFmt = fmt;
}

function styleRow(xr: ExcelJS.Row, columns: Column[], style: RowStyle | undefined, zebra: boolean): void {
  columns.forEach((col, i) => {
    const cell = xr.getCell(i + 1);
    switch (style) {
      case 'heading':
        cell.font = { bold: true, color: { argb: NAVY } };
        break;
      case 'detail':
        if (i === 0 || (col.kind === 'text' && i === columns.findIndex((c) => c.kind === 'text')))
          cell.alignment = { indent: 1 };
        break;
      case 'subtotal':
        cell.font = { bold: true };
        cell.border = { top: { style: 'thin', color: { argb: RULE } } };
        break;
      case 'total':
        cell.font = { bold: true, color: { argb: NAVY } };
        cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: BAND } };
        cell.border = {
          top: { style: 'thin', color: { argb: NAVY } },
          bottom: { style: 'double', color: { argb: NAVY } },
        };
        break;
      default:
        if (zebra) cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: ZEBRA } };
    }
  });
}

/** Where everything goes in each sheet, computed before writing so formulas may refer to other sheets. */
function layoutOf(sheet: SheetModel, usedNames: Set<string>): Layout {
  let name = sheet.name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Hoja';
  for (let i = 2; usedNames.has(name.toLowerCase()); i++) name = `${sheet.name.slice(0, 27)} (${i})`;
  usedNames.add(name.toLowerCase());
  const headerRow = 1 + (sheet.title ? 1 : 0) + (sheet.subtitle ? 1 : 0);
  const lastData = headerRow + sheet.rows.length;
  return {
    name,
    letters: new Map(sheet.columns.map((c, i) => [c.key, colLetter(i + 1)])),
    headerRow,
    firstData: headerRow + 1,
    lastData,
    totalsRow: lastData + 1,
  };
}

function addSheet(
  wb: ExcelJS.Workbook,
  sheet: SheetModel,
  layout: Layout,
  layouts: Map<string, Layout>,
): SheetCharts {
  const ws = wb.addWorksheet(layout.name, {
    pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, paperSize: 9 },
  });
  const ctx = { layouts, own: layout };
  const nCols = sheet.columns.length;
  const { headerRow, firstData, lastData } = layout;
  let row = 1;
  if (sheet.title) {
    ws.getCell(row, 1).value = sheet.title;
    ws.getCell(row, 1).font = { bold: true, size: 14, color: { argb: NAVY } };
    if (nCols > 1) ws.mergeCells(row, 1, row, nCols);
    ws.getRow(row).height = 22;
    row++;
  }
  if (sheet.subtitle) {
    ws.getCell(row, 1).value = sheet.subtitle;
    ws.getCell(row, 1).font = { color: { argb: 'FF52606D' } };
    if (nCols > 1) ws.mergeCells(row, 1, row, nCols);
  }
  const header = ws.getRow(headerRow);
  sheet.columns.forEach((col, i) => {
    const cell = header.getCell(i + 1);
    cell.value = col.header;
    cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: NAVY } };
    cell.alignment = {
      vertical: 'middle',
      horizontal: col.kind === 'text' ? 'left' : 'right',
      wrapText: true,
    };
    cell.border = { bottom: { style: 'thin', color: { argb: NAVY } } };
  });
  header.height = 20;

  sheet.rows.forEach((r, i) => {
    const sheetRow = firstData + i;
    const xr = ws.getRow(sheetRow);
    sheet.columns.forEach((col, j) => setCell(xr.getCell(j + 1), r[col.key], col, ctx, sheetRow));
    styleRow(xr, sheet.columns, sheet.rowStyles?.[i], !sheet.rowStyles && i % 2 === 1);
  });

  if (sheet.totals && sheet.rows.length > 0) {
    const totals = sheet.totals;
    const tr = ws.getRow(layout.totalsRow);
    tr.getCell(1).value = totals.label;
    sheet.columns.forEach((col, i) => {
      const cell = tr.getCell(i + 1);
      if (totals.sum.includes(col.key)) {
        const letter = colLetter(i + 1);
        // Cached result: the exact decimal sum of the values (no float drift), as Excel would compute it.
        const sum = Decimal.sum(0, ...sheet.rows.map((r) => String(cellValue(r[col.key]) || 0)));
        cell.value = { formula: `SUM(${letter}${firstData}:${letter}${lastData})`, result: sum.toNumber() };
        const fmt = numFmt(col);
        if (fmt) cell.numFmt = fmt;
      } else if (totals.cells?.[col.key] !== undefined) {
        setCell(cell, totals.cells[col.key], col, ctx, layout.totalsRow);
      }
    });
    styleRow(tr, sheet.columns, 'total', false);
  }

  sheet.columns.forEach((col, i) => {
    const longest = Math.max(col.header.length, ...sheet.rows.map((r) => displayLength(r[col.key], col)));
    ws.getColumn(i + 1).width = col.width ?? Math.min(60, Math.max(8, longest + 2));
  });
  ws.views = [{ state: 'frozen', xSplit: 0, ySplit: headerRow, activeCell: `A${headerRow + 1}` }];
  if (nCols > 0 && sheet.autoFilter !== false)
    ws.autoFilter = { from: { row: headerRow, column: 1 }, to: { row: headerRow, column: nCols } };

  return { sheet: layout.name, charts: (sheet.charts ?? []).map((c, i) => chartPart(sheet, c, layout, i)) };
}

/** A SheetChart (column keys, data rows) → the chart part's ranges and cached values. */
function chartPart(
  sheet: SheetModel,
  chart: NonNullable<SheetModel['charts']>[number],
  layout: Layout,
  index: number,
): ChartPart {
  const name = layout.name;
  const [from, to] = chart.rows;
  const r0 = layout.firstData + from;
  const r1 = layout.firstData + Math.min(to, sheet.rows.length) - 1;
  const rows = sheet.rows.slice(from, to);
  const col = (key: string) => {
    const letter = layout.letters.get(key);
    if (!letter) throw new Error(`chart '${chart.title}' refers to an unknown column '${key}'`);
    return letter;
  };
  const headerRow = layout.headerRow;
  const cat = col(chart.categories);
  const nCols = sheet.columns.length;
  const tall = Math.max(16, Math.min(24, rows.length * 1.6 + 6));
  return {
    type: chart.type,
    title: chart.title,
    categories: {
      ref: sheetRef(name, `$${cat}$${r0}:$${cat}$${r1}`),
      values: rows.map((r) => String(cellValue(r[chart.categories]) ?? '')),
    },
    series: chart.values.map((key) => {
      const letter = col(key);
      const column = sheet.columns.find((c) => c.key === key)!;
      const fmt = numFmt(column);
      return {
        name: { ref: sheetRef(name, `$${letter}$${headerRow}`), value: column.header },
        ref: sheetRef(name, `$${letter}$${r0}:$${letter}$${r1}`),
        values: rows.map((r) => {
          const v = cellValue(r[key]);
          return v === null || v === '' ? null : Number(v);
        }),
        // Axis labels without cents: "$240,000", not "$240,000.00".
        numFmt: fmt?.replace(/\.0+/g, ''),
      };
    }),
    anchor: chart.anchor ?? {
      col: nCols + 1,
      row: headerRow - 1 + index * 26,
      cols: 9,
      rows: Math.round(tall),
    },
  };
}

export async function renderXlsx(model: DocumentModel): Promise<RenderedFile> {
  const sheets = sheetsOf(model, 'xlsx');
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Documentos';
  wb.title = model.title;
  wb.created = new Date();
  wb.modified = wb.created;
  // Cached results are exact, but a spreadsheet app should still compute the formulas itself on open.
  wb.calcProperties.fullCalcOnLoad = true;
  const used = new Set<string>();
  const layouts = sheets.map((sheet) => layoutOf(sheet, used));
  // Formulas name other sheets by the model's name ({Ventas!$revenue@0:last}).
  const byName = new Map(sheets.map((sheet, i) => [sheet.name, layouts[i]!]));
  const charts = sheets.map((sheet, i) => addSheet(wb, sheet, layouts[i]!, byName));
  const bytes = addCharts(new Uint8Array(await wb.xlsx.writeBuffer()), charts);
  return { bytes, contentType: CONTENT_TYPES.xlsx, extension: 'xlsx' };
}
