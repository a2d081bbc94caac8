// Tables of a rendered HTML document as sheets, for xlsx/csv of templates that have no data model of their own
// (callers' custom_html). Each <table> becomes a sheet; the first row with <th> cells (or the first row) is the
// header; plain numbers ("1234.5", "1,234.50", "-3") become numbers, everything else stays text.
import { parseDocument, type DomElement } from './dom';
import type { Cell, SheetModel } from '../../../templates/kit/sheet-model';

const NUMBER = /^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;

function cellValue(text: string): Cell {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t === '') return null;
  if (NUMBER.test(t)) return Number(t.replace(/,/g, ''));
  return t;
}

export function tablesFromHtml(html: string): SheetModel[] {
  const document = parseDocument(html);
  const sheets: SheetModel[] = [];
  const tables = [...document.querySelectorAll('table')];
  tables.forEach((table, ti) => {
    const rows = [...table.querySelectorAll('tr')].filter((tr) => tr.closest('table') === table);
    if (rows.length === 0) return;
    const headerIndex = Math.max(
      0,
      rows.findIndex((tr) => tr.querySelector('th') !== null),
    );
    const cellsOf = (tr: DomElement) =>
      [...tr.children].filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
    const headerCells = cellsOf(rows[headerIndex]!).map((c) =>
      (c.textContent ?? '').replace(/\s+/g, ' ').trim(),
    );
    const width = Math.max(headerCells.length, ...rows.map((r) => cellsOf(r).length));
    const columns = Array.from({ length: width }, (_, i) => ({
      key: `c${i}`,
      header: headerCells[i] || `Columna ${i + 1}`,
      kind: 'text' as const,
    }));
    const body = rows.slice(headerIndex + 1).map((tr) => {
      const row: Record<string, Cell> = {};
      cellsOf(tr).forEach((c, i) => (row[`c${i}`] = cellValue(c.textContent ?? '')));
      return row;
    });
    // A column whose every value is a number is numeric (right-aligned, number format in xlsx).
    for (const col of columns) {
      const values = body.map((r) => r[col.key]).filter((v) => v !== null && v !== undefined);
      if (values.length > 0 && values.every((v) => typeof v === 'number')) {
        (col as { kind: string }).kind = values.every((v) => Number.isInteger(v)) ? 'integer' : 'decimal';
      }
    }
    const caption = table.querySelector('caption')?.textContent?.trim();
    sheets.push({
      name: (caption || `Tabla ${ti + 1}`).replace(/[[\]:*?/\\]/g, ' ').slice(0, 31),
      title: caption || undefined,
      columns,
      rows: body,
    });
  });
  return sheets;
}
