// Native Excel charts for the xlsx writer. exceljs 4 has no chart API, so the finished workbook is opened (fflate),
// and for each chart we add the three parts SpreadsheetML needs, plus their wiring:
//
//   xl/charts/chartN.xml                 <c:chartSpace>: the chart, its series pointing at sheet ranges, with the
//                                        values cached (viewers that do not recalculate draw them as they are)
//   xl/drawings/drawingK.xml (+ _rels)   <xdr:wsDr>: a two-cell anchor that places the chart over the cells
//   xl/worksheets/_rels/sheetM.xml.rels  the sheet's relationship to its drawing, and <drawing r:id> in the sheet
//   [Content_Types].xml                  overrides for the chart and drawing parts
//
// Element order follows the ECMA-376 schema (Excel refuses out-of-order elements; LibreOffice is lenient).
// Checked by opening the result in LibreOffice headless (test/unit/documents-formats.test.ts converts it to PDF
// and to ODS, where the chart must survive as a chart object).
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';

export interface ChartPart {
  type: 'bar' | 'column' | 'doughnut' | 'pie';
  title: string;
  /** Category labels: a range such as `'Ventas'!$B$3:$B$12` and its cached text. */
  categories: { ref: string; values: string[] };
  series: {
    /** Series name: the header cell (`'Ventas'!$F$2`) and its text. */
    name: { ref: string; value: string };
    ref: string;
    values: (number | null)[];
    /** Number format of the values (axis labels), e.g. `"$"#,##0`. */
    numFmt?: string;
  }[];
  /** Top-left cell (0-based column and row) and size in columns and rows. */
  anchor: { col: number; row: number; cols: number; rows: number };
}

export interface SheetCharts {
  /** Worksheet name as in the workbook. */
  sheet: string;
  charts: ChartPart[];
}

const NS = {
  c: 'http://schemas.openxmlformats.org/drawingml/2006/chart',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  xdr: 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing',
  pkg: 'http://schemas.openxmlformats.org/package/2006/relationships',
};
const REL_DRAWING = `${NS.r}/drawing`;
const REL_CHART = `${NS.r}/chart`;
const CT_CHART = 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml';
const CT_DRAWING = 'application/vnd.openxmlformats-officedocument.drawing+xml';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** House colours (RRGGBB): the navy ramp of the PDF charts, grey for a remainder. */
const COLOURS = ['1F3A5F', '2F5F8F', '4B83B6', '79A6CF', 'A9C7E3', 'D3E3F1', 'C8873A', 'C5CCD3'];

export function xmlEscape(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ''); // not allowed in XML 1.0
}

/** `'Ventas'!$B$3:$B$12` (sheet names quoted, quotes doubled). */
export function sheetRef(sheet: string, range: string): string {
  return `'${sheet.replace(/'/g, "''")}'!${range}`;
}

function fill(rgb: string): string {
  return `<a:solidFill><a:srgbClr val="${rgb}"/></a:solidFill>`;
}

function rich(text: string, size: number, bold: boolean): string {
  return (
    `<c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="${size}" b="${bold ? 1 : 0}"/></a:pPr>` +
    `<a:r><a:rPr lang="es-MX" sz="${size}" b="${bold ? 1 : 0}"/><a:t>${xmlEscape(text)}</a:t></a:r></a:p></c:rich>`
  );
}

function strCache(values: string[]): string {
  return (
    `<c:strCache><c:ptCount val="${values.length}"/>` +
    values.map((v, i) => `<c:pt idx="${i}"><c:v>${xmlEscape(v)}</c:v></c:pt>`).join('') +
    '</c:strCache>'
  );
}

function numCache(values: (number | null)[], format: string): string {
  return (
    `<c:numCache><c:formatCode>${xmlEscape(format)}</c:formatCode><c:ptCount val="${values.length}"/>` +
    values
      .map((v, i) => (v === null || !Number.isFinite(v) ? '' : `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`))
      .join('') +
    '</c:numCache>'
  );
}

function series(chart: ChartPart, pie: boolean): string {
  return chart.series
    .map((s, i) => {
      const fmt = s.numFmt ?? 'General';
      const points = pie
        ? chart.categories.values
            .map(
              (_, j) =>
                `<c:dPt><c:idx val="${j}"/><c:bubble3D val="0"/><c:spPr>${fill(COLOURS[j % COLOURS.length]!)}` +
                '<a:ln w="12700"><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></a:ln></c:spPr></c:dPt>',
            )
            .join('')
        : '';
      const labels = pie
        ? '<c:dLbls><c:numFmt formatCode="0.0%" sourceLinked="0"/><c:spPr><a:noFill/><a:ln><a:noFill/></a:ln></c:spPr>' +
          '<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="900" b="1"><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></a:defRPr></a:pPr><a:endParaRPr lang="es-MX"/></a:p></c:txPr>' +
          '<c:showLegendKey val="0"/><c:showVal val="0"/><c:showCatName val="0"/><c:showSerName val="0"/>' +
          '<c:showPercent val="1"/><c:showBubbleSize val="0"/><c:showLeaderLines val="0"/></c:dLbls>'
        : '';
      return (
        `<c:ser><c:idx val="${i}"/><c:order val="${i}"/>` +
        `<c:tx><c:strRef><c:f>${xmlEscape(s.name.ref)}</c:f>${strCache([s.name.value])}</c:strRef></c:tx>` +
        (pie ? '' : `<c:spPr>${fill(COLOURS[i % COLOURS.length]!)}</c:spPr><c:invertIfNegative val="0"/>`) +
        points +
        labels +
        `<c:cat><c:strRef><c:f>${xmlEscape(chart.categories.ref)}</c:f>${strCache(chart.categories.values)}</c:strRef></c:cat>` +
        `<c:val><c:numRef><c:f>${xmlEscape(s.ref)}</c:f>${numCache(s.values, fmt)}</c:numRef></c:val>` +
        '</c:ser>'
      );
    })
    .join('');
}

const AXIS_TEXT =
  '<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="900"><a:solidFill><a:srgbClr val="52606D"/></a:solidFill></a:defRPr></a:pPr><a:endParaRPr lang="es-MX"/></a:p></c:txPr>';
const NO_LINE = '<c:spPr><a:ln><a:noFill/></a:ln></c:spPr>';

/** The chart part (xl/charts/chartN.xml) for one chart. */
export function chartXml(chart: ChartPart): string {
  const pie = chart.type === 'pie' || chart.type === 'doughnut';
  let plot: string;
  if (pie) {
    const body = `<c:varyColors val="1"/>${series(chart, true)}<c:firstSliceAng val="0"/>`;
    plot =
      chart.type === 'doughnut'
        ? `<c:doughnutChart>${body}<c:holeSize val="55"/></c:doughnutChart>`
        : `<c:pieChart>${body}</c:pieChart>`;
  } else {
    const horizontal = chart.type === 'bar';
    const fmt = chart.series[0]?.numFmt ?? 'General';
    plot =
      `<c:barChart><c:barDir val="${horizontal ? 'bar' : 'col'}"/><c:grouping val="clustered"/><c:varyColors val="0"/>` +
      series(chart, false) +
      '<c:gapWidth val="60"/><c:axId val="50010"/><c:axId val="50020"/></c:barChart>' +
      // Categories: ranked tables list the largest first; a horizontal bar chart draws the first category at the
      // bottom unless the axis runs max→min (then the value axis must cross at "max" to stay at the bottom).
      `<c:catAx><c:axId val="50010"/><c:scaling><c:orientation val="${horizontal ? 'maxMin' : 'minMax'}"/></c:scaling>` +
      `<c:delete val="0"/><c:axPos val="${horizontal ? 'l' : 'b'}"/><c:numFmt formatCode="General" sourceLinked="0"/>` +
      '<c:majorTickMark val="none"/><c:minorTickMark val="none"/><c:tickLblPos val="low"/>' +
      `<c:spPr><a:ln w="9525">${fill('9AA5B1')}</a:ln></c:spPr>${AXIS_TEXT}` +
      '<c:crossAx val="50020"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/>' +
      '<c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>' +
      `<c:valAx><c:axId val="50020"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>` +
      `<c:axPos val="${horizontal ? 'b' : 'l'}"/>` +
      `<c:majorGridlines><c:spPr><a:ln w="6350">${fill('D9E2EC')}</a:ln></c:spPr></c:majorGridlines>` +
      `<c:numFmt formatCode="${xmlEscape(fmt)}" sourceLinked="0"/><c:majorTickMark val="none"/>` +
      `<c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>${NO_LINE}${AXIS_TEXT}` +
      `<c:crossAx val="50010"/><c:crosses val="${horizontal ? 'max' : 'autoZero'}"/><c:crossBetween val="between"/></c:valAx>`;
  }
  const legend = pie
    ? `<c:legend><c:legendPos val="r"/><c:overlay val="0"/>${AXIS_TEXT.replace('52606D', '1F2933')}</c:legend>`
    : '';
  return (
    XML_HEAD +
    `<c:chartSpace xmlns:c="${NS.c}" xmlns:a="${NS.a}" xmlns:r="${NS.r}">` +
    '<c:date1904 val="0"/><c:lang val="es-MX"/><c:roundedCorners val="0"/>' +
    `<c:chart><c:title><c:tx>${rich(chart.title, 1200, true)}</c:tx><c:overlay val="0"/></c:title>` +
    `<c:autoTitleDeleted val="0"/><c:plotArea><c:layout/>${plot}</c:plotArea>${legend}` +
    '<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart>' +
    `<c:spPr>${fill('FFFFFF')}<a:ln w="9525">${fill('D9E2EC')}</a:ln></c:spPr>` +
    '<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="900"/></a:pPr><a:endParaRPr lang="es-MX"/></a:p></c:txPr>' +
    '</c:chartSpace>'
  );
}

function anchorXml(chart: ChartPart, relId: string, id: number): string {
  const { col, row, cols, rows } = chart.anchor;
  const cell = (tag: string, c: number, r: number) =>
    `<xdr:${tag}><xdr:col>${c}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${r}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:${tag}>`;
  return (
    '<xdr:twoCellAnchor editAs="oneCell">' +
    cell('from', col, row) +
    cell('to', col + cols, row + rows) +
    `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="${id}" name="${xmlEscape(`Gráfico ${id - 1}`)}" ` +
    `descr="${xmlEscape(chart.title)}"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>` +
    '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>' +
    `<a:graphic><a:graphicData uri="${NS.c}"><c:chart xmlns:c="${NS.c}" xmlns:r="${NS.r}" r:id="${relId}"/>` +
    '</a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>'
  );
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name.replace(':', '\\:')}="([^"]*)"`).exec(tag);
  return m?.[1];
}

function relationships(xml: string | undefined): { id: string; target: string; type: string }[] {
  if (!xml) return [];
  return [...xml.matchAll(/<Relationship\b[^>]*>/g)].map((m) => ({
    id: attr(m[0], 'Id') ?? '',
    target: attr(m[0], 'Target') ?? '',
    type: attr(m[0], 'Type') ?? '',
  }));
}

function freeId(taken: string[]): string {
  for (let i = 1; ; i++) if (!taken.includes(`rId${i}`)) return `rId${i}`;
}

function nextNumber(files: Zippable, prefix: string, suffix: string): number {
  let n = 1;
  while (`${prefix}${n}${suffix}` in files) n++;
  return n;
}

/** Where `<drawing>` goes in a worksheet: before the first of these elements that is present (schema order). */
const AFTER_DRAWING = [
  '<legacyDrawing',
  '<legacyDrawingHF',
  '<drawingHF',
  '<picture',
  '<oleObjects',
  '<controls',
  '<webPublishItems',
  '<tableParts',
  '<extLst',
  '</worksheet>',
];

/** Adds native charts to an xlsx (bytes from exceljs) and returns the new file. */
export function addCharts(xlsx: Uint8Array, sheets: SheetCharts[]): Buffer {
  const todo = sheets.filter((s) => s.charts.length > 0);
  if (todo.length === 0) return Buffer.from(xlsx);
  const files = unzipSync(xlsx) as Record<string, Uint8Array>;
  const read = (name: string) => (files[name] ? strFromU8(files[name]) : undefined);
  const workbook = read('xl/workbook.xml');
  const wbRels = relationships(read('xl/_rels/workbook.xml.rels'));
  let types = read('[Content_Types].xml');
  if (!workbook || !types) throw new Error('not an xlsx: workbook.xml or [Content_Types].xml missing');

  for (const { sheet, charts } of todo) {
    const tag = [...workbook.matchAll(/<sheet\b[^>]*>/g)].find(
      (m) => attr(m[0], 'name') === xmlEscape(sheet),
    );
    const rid = tag && attr(tag[0], 'r:id');
    const target = wbRels.find((r) => r.id === rid)?.target;
    if (!target) throw new Error(`worksheet '${sheet}' not found in the workbook`);
    const sheetPath = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
    const base = sheetPath.slice(sheetPath.lastIndexOf('/') + 1);
    const relsPath = `${sheetPath.slice(0, sheetPath.lastIndexOf('/'))}/_rels/${base}.rels`;
    let sheetXml = read(sheetPath)!;
    if (/<drawing\b/.test(sheetXml)) throw new Error(`worksheet '${sheet}' already has a drawing`);

    const d = nextNumber(files, 'xl/drawings/drawing', '.xml');
    const drawingPath = `xl/drawings/drawing${d}.xml`;
    const anchors: string[] = [];
    const drawingRels: string[] = [];
    charts.forEach((chart, i) => {
      const n = nextNumber(files, 'xl/charts/chart', '.xml');
      files[`xl/charts/chart${n}.xml`] = strToU8(chartXml(chart));
      types = types!.replace(
        '</Types>',
        `<Override PartName="/xl/charts/chart${n}.xml" ContentType="${CT_CHART}"/></Types>`,
      );
      drawingRels.push(
        `<Relationship Id="rId${i + 1}" Type="${REL_CHART}" Target="../charts/chart${n}.xml"/>`,
      );
      anchors.push(anchorXml(chart, `rId${i + 1}`, i + 2));
    });
    files[drawingPath] = strToU8(
      `${XML_HEAD}<xdr:wsDr xmlns:xdr="${NS.xdr}" xmlns:a="${NS.a}">${anchors.join('')}</xdr:wsDr>`,
    );
    files[`xl/drawings/_rels/drawing${d}.xml.rels`] = strToU8(
      `${XML_HEAD}<Relationships xmlns="${NS.pkg}">${drawingRels.join('')}</Relationships>`,
    );
    types = types.replace(
      '</Types>',
      `<Override PartName="/${drawingPath}" ContentType="${CT_DRAWING}"/></Types>`,
    );

    const relsXml = read(relsPath) ?? `${XML_HEAD}<Relationships xmlns="${NS.pkg}"></Relationships>`;
    const relId = freeId(relationships(relsXml).map((r) => r.id));
    files[relsPath] = strToU8(
      relsXml.replace(
        '</Relationships>',
        `<Relationship Id="${relId}" Type="${REL_DRAWING}" Target="../drawings/drawing${d}.xml"/></Relationships>`,
      ),
    );
    if (!/<worksheet\b[^>]*\sxmlns:r=/.test(sheetXml))
      sheetXml = sheetXml.replace(/<worksheet\b/, `<worksheet xmlns:r="${NS.r}"`);
    const at = Math.min(...AFTER_DRAWING.map((t) => sheetXml.indexOf(t)).filter((i) => i >= 0));
    sheetXml = `${sheetXml.slice(0, at)}<drawing r:id="${relId}"/>${sheetXml.slice(at)}`;
    files[sheetPath] = strToU8(sheetXml);
  }
  files['[Content_Types].xml'] = strToU8(types);
  return Buffer.from(zipSync(files, { level: 6 }));
}
