// xlsx (exceljs): one worksheet per sheet of the model: optional title row, a styled header row (bold, white on
// navy, bordered), typed cells with number formats (integers, decimals, money in the column's currency, percent,
// dates), widths fitted to the content, the header frozen and an autofilter on it, and a totals row made of SUM
// formulas (with their values cached, so viewers that do not recalculate show them too).
import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { CONTENT_TYPES } from '../domain/formats';
import { sheetsOf } from './csv';
import type { Cell, Column, DocumentModel, RenderedFile, SheetModel } from './types';

const NAVY = 'FF1F3A5F';
const ZEBRA = 'FFF3F6FA';

function numFmt(col: Column): string | undefined {
  switch (col.kind) {
    case 'integer':
      return '#,##0';
    case 'decimal':
      return '#,##0.00';
    case 'money': {
      const code = (col.currency ?? 'MXN').toUpperCase();
      // "$" for pesos (es-MX), the ISO code otherwise: "USD 1,234.50".
      return code === 'MXN' ? '"$"#,##0.00;-"$"#,##0.00' : `"${code} "#,##0.00;-"${code} "#,##0.00`;
    }
    case 'percent':
      return '0.0%';
    case 'date':
      return 'dd/mm/yyyy';
    default:
      return undefined;
  }
}

function excelValue(value: Cell | undefined, col: Column): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (col.kind === 'date' && typeof value === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
    if (m) return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  }
  return value;
}

function displayLength(value: Cell | undefined, col: Column): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number') {
    const s = value.toLocaleString('en-US', { maximumFractionDigits: 2 });
    return s.length + (col.kind === 'money' ? 5 : 1);
  }
  return Math.max(
    ...String(value)
      .split('\n')
      .map((l) => l.length),
  );
}

function colLetter(n: number): string {
  let s = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}

function addSheet(wb: ExcelJS.Workbook, sheet: SheetModel, usedNames: Set<string>): void {
  let name = sheet.name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Hoja';
  for (let i = 2; usedNames.has(name.toLowerCase()); i++) name = `${sheet.name.slice(0, 27)} (${i})`;
  usedNames.add(name.toLowerCase());
  const ws = wb.addWorksheet(name, {
    pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, paperSize: 9 },
  });
  const nCols = sheet.columns.length;
  let headerRow = 1;
  if (sheet.title) {
    ws.getCell(1, 1).value = sheet.title;
    ws.getCell(1, 1).font = { bold: true, size: 14, color: { argb: NAVY } };
    if (nCols > 1) ws.mergeCells(1, 1, 1, nCols);
    ws.getRow(1).height = 22;
    headerRow = 2;
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

  sheet.rows.forEach((row, r) => {
    const xr = ws.getRow(headerRow + 1 + r);
    sheet.columns.forEach((col, i) => {
      const cell = xr.getCell(i + 1);
      cell.value = excelValue(row[col.key], col);
      const fmt = numFmt(col);
      if (fmt) cell.numFmt = fmt;
      if (r % 2 === 1) cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: ZEBRA } };
    });
  });

  const firstData = headerRow + 1;
  const lastData = headerRow + sheet.rows.length;
  if (sheet.totals && sheet.rows.length > 0) {
    const tr = ws.getRow(lastData + 1);
    tr.getCell(1).value = sheet.totals.label;
    sheet.columns.forEach((col, i) => {
      const cell = tr.getCell(i + 1);
      if (sheet.totals!.sum.includes(col.key)) {
        const letter = colLetter(i + 1);
        // Cached result: the exact decimal sum of the values (no float drift), as Excel would compute it.
        const sum = Decimal.sum(0, ...sheet.rows.map((row) => String(row[col.key] ?? 0)));
        cell.value = { formula: `SUM(${letter}${firstData}:${letter}${lastData})`, result: sum.toNumber() };
        const fmt = numFmt(col);
        if (fmt) cell.numFmt = fmt;
      }
      cell.font = { bold: true };
      cell.border = { top: { style: 'thin', color: { argb: NAVY } } };
    });
  }

  sheet.columns.forEach((col, i) => {
    const longest = Math.max(col.header.length, ...sheet.rows.map((r) => displayLength(r[col.key], col)));
    ws.getColumn(i + 1).width = col.width ?? Math.min(60, Math.max(8, longest + 2));
  });
  ws.views = [{ state: 'frozen', xSplit: 0, ySplit: headerRow, activeCell: `A${headerRow + 1}` }];
  if (nCols > 0)
    ws.autoFilter = { from: { row: headerRow, column: 1 }, to: { row: headerRow, column: nCols } };
}

export async function renderXlsx(model: DocumentModel): Promise<RenderedFile> {
  const sheets = sheetsOf(model, 'xlsx');
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Documentos';
  wb.title = model.title;
  wb.created = new Date();
  wb.modified = wb.created;
  const used = new Set<string>();
  for (const sheet of sheets) addSheet(wb, sheet, used);
  const bytes = Buffer.from(await wb.xlsx.writeBuffer());
  return { bytes, contentType: CONTENT_TYPES.xlsx, extension: 'xlsx' };
}
