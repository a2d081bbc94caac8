// Reads a caller's CFDI 4.0 XML (stamped or not) into what its printed representation shows.
//
// Parsed by saxes: strict XML 1.0 with namespaces, and no DTD processing at all: a DOCTYPE is refused before its
// content matters (so no external DTD is fetched, no entity is declared, XXE and "billion laughs" cannot expand),
// and any entity but XML's five predefined ones is a well-formedness error. Elements are matched by namespace URI
// and local name, never by prefix. Size is bounded by the caller (the request's cfdi_xml length) and here by the
// number of elements and the depth.
//
// Refused, each with a problem naming it: not well-formed XML, a DTD, a root that is not {cfd/4}Comprobante (CFDI
// 3.3 gets its own message), Version other than 4.0, a missing attribute cfdv40.xsd requires for printing, a
// TimbreFiscalDigital that is not 1.1 or lacks an attribute. The amounts are kept as written (text): the PDF
// prints the XML's figures; ./verificar.ts re-checks them.
import { SaxesParser, type SaxesTagNS } from 'saxes';

export const NS_CFDI40 = 'http://www.sat.gob.mx/cfd/4';
export const NS_CFDI33 = 'http://www.sat.gob.mx/cfd/3';
export const NS_TFD = 'http://www.sat.gob.mx/TimbreFiscalDigital';
export const NS_NOMINA12 = 'http://www.sat.gob.mx/nomina12';
export const NS_PAGOS20 = 'http://www.sat.gob.mx/Pagos20';

const MAX_ELEMENTS = 20_000;
export const UUID_RE = /^[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}$/;
const MAX_DEPTH = 24;

export interface CfdiXmlProblem {
  msg: string;
  type: string;
}

/** The XML cannot be printed: every problem found (one when it is not even well-formed). */
export class CfdiXmlError extends Error {
  constructor(readonly problems: CfdiXmlProblem[]) {
    super(problems.map((p) => p.msg).join('; '));
    this.name = 'CfdiXmlError';
  }
}

/** An element as read (namespace URI, local name, unprefixed attributes): complements are read from these. */
export interface XmlNodo {
  uri: string;
  local: string;
  attrs: Record<string, string>;
  children: XmlNodo[];
  /** Its own character data, when not only whitespace (a few complements carry text, e.g. detallista). */
  text?: string;
}
type El = XmlNodo;

/** Parses `xml` (the defences above); throws CfdiXmlError when it is not well-formed or too large. */
export function arbolXml(xml: string): El {
  return tree(xml);
}

function tree(xml: string): El {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: El[] = [];
  let root: El | undefined;
  let count = 0;
  const fail = (msg: string, type: string): never => {
    throw new CfdiXmlError([{ msg, type }]);
  };
  parser.on('doctype', () =>
    fail('A DOCTYPE is not accepted: a CFDI has no DTD (entities and external DTDs are refused)', 'xml_dtd'),
  );
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (++count > MAX_ELEMENTS) fail(`More than ${MAX_ELEMENTS} XML elements`, 'xml_too_large');
    if (stack.length >= MAX_DEPTH) fail(`XML nested deeper than ${MAX_DEPTH} elements`, 'xml_too_deep');
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) if (!a.uri) attrs[a.local] = a.value;
    const el: El = { uri: tag.uri, local: tag.local, attrs, children: [] };
    if (stack.length) stack[stack.length - 1]!.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('text', (t: string) => {
    const el = stack[stack.length - 1];
    if (el && t.trim()) el.text = (el.text ?? '') + t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  try {
    parser.write(xml).close();
  } catch (err) {
    if (err instanceof CfdiXmlError) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    fail(`Not well-formed XML: ${detail}`, 'xml_syntax');
  }
  return root ?? fail('No root element', 'xml_syntax');
}

export const child = (el: El | undefined, uri: string, local: string) =>
  el?.children.find((c) => c.uri === uri && c.local === local);
export const children = (el: El | undefined, uri: string, local: string) =>
  el?.children.filter((c) => c.uri === uri && c.local === local) ?? [];

/**
 * Attribute readers of one element that collect problems: `req` records "<trail>@<name> is required" for a
 * missing or blank attribute (and answers ''), `opt` answers undefined for those. Values are trimmed.
 */
export function atributos(el: El, trail: string, problems: CfdiXmlProblem[]) {
  return {
    req: (name: string): string => {
      const v = el.attrs[name];
      if (v === undefined || v.trim() === '') {
        problems.push({ msg: `${trail}@${name} is required`, type: 'cfdi_missing' });
        return '';
      }
      return v.trim();
    },
    opt: (name: string): string | undefined => {
      const v = el.attrs[name]?.trim();
      return v === undefined || v === '' ? undefined : v;
    },
  };
}

/** The TimbreFiscalDigital element (printed as the timbre, not as a complement). */
export const esTimbre = (x: El): boolean => x.uri === NS_TFD && x.local === 'TimbreFiscalDigital';

/**
 * The TimbreFiscalDigital 1.1 among a comprobante's complements (a CFDI 4.0 or a Retenciones 2.0), read with its
 * problems; undefined when it has none (not stamped).
 */
export function leerTimbre(complementos: readonly El[], problems: CfdiXmlProblem[]): TimbreLeido | undefined {
  const tfdEl = complementos.find(esTimbre);
  if (!tfdEl) return undefined;
  const t = atributos(tfdEl, 'TimbreFiscalDigital', problems);
  const version = t.req('Version');
  if (version && version !== '1.1')
    problems.push({
      msg: `TimbreFiscalDigital@Version must be 1.1, not '${version}'`,
      type: 'cfdi_version',
    });
  // As written (not trimmed): the cadena original applies SAT's own whitespace rule (normalize-space).
  const raw = (name: string) => (t.req(name) === '' ? '' : tfdEl.attrs[name]!);
  // SelloCFD and SelloSAT are required attributes whose XSD type allows an empty value: present is enough.
  const present = (name: string) => {
    const v = tfdEl.attrs[name];
    if (v === undefined)
      problems.push({ msg: `TimbreFiscalDigital@${name} is required`, type: 'cfdi_missing' });
    return v ?? '';
  };
  // TimbreFiscalDigitalv11.xsd: 8-4-4-4-12 hexadecimal digits, either case (kept as written).
  if (tfdEl.attrs.UUID?.trim() && !UUID_RE.test(tfdEl.attrs.UUID))
    problems.push({
      msg: `TimbreFiscalDigital@UUID '${tfdEl.attrs.UUID.slice(0, 60)}' is not 8-4-4-4-12 hexadecimal digits (TimbreFiscalDigitalv11.xsd)`,
      type: 'cfdi_invalid',
    });
  return {
    version,
    uuid: raw('UUID'),
    fechaTimbrado: raw('FechaTimbrado'),
    rfcProvCertif: raw('RfcProvCertif'),
    leyenda: tfdEl.attrs.Leyenda,
    selloCfd: present('SelloCFD'),
    noCertificadoSat: raw('NoCertificadoSAT'),
    selloSat: present('SelloSAT'),
  };
}

export interface TrasladoLeido {
  base: string;
  impuesto: string;
  tipoFactor: string;
  tasaOCuota?: string;
  importe?: string;
}

export interface RetencionLeida {
  base?: string;
  impuesto: string;
  tipoFactor?: string;
  tasaOCuota?: string;
  importe: string;
}

export interface ConceptoLeido {
  claveProdServ: string;
  noIdentificacion?: string;
  cantidad: string;
  claveUnidad: string;
  unidad?: string;
  descripcion: string;
  valorUnitario: string;
  importe: string;
  descuento?: string;
  objetoImp: string;
  traslados: TrasladoLeido[];
  retenciones: RetencionLeida[];
  /** Concept-level nodes besides Impuestos, as read: ACuentaTerceros, InformacionAduanera, CuentaPredial, Parte
   * (CFDI namespace) and the ComplementoConcepto's children (iedu, ventavehiculos…); printed by ./complementos.ts. */
  extras: XmlNodo[];
}

export interface TimbreLeido {
  version: string;
  uuid: string;
  fechaTimbrado: string;
  rfcProvCertif: string;
  leyenda?: string;
  selloCfd: string;
  noCertificadoSat: string;
  selloSat: string;
}

export interface CfdiLeido {
  serie?: string;
  folio?: string;
  fecha: string;
  sello: string;
  formaPago?: string;
  noCertificado: string;
  condicionesDePago?: string;
  subTotal: string;
  descuento?: string;
  moneda: string;
  tipoCambio?: string;
  total: string;
  tipoDeComprobante: string;
  exportacion: string;
  metodoPago?: string;
  lugarExpedicion: string;
  confirmacion?: string;
  informacionGlobal?: { periodicidad: string; meses: string; anio: string };
  relacionados: { tipoRelacion: string; uuids: string[] }[];
  emisor: { rfc: string; nombre: string; regimenFiscal: string };
  receptor: {
    rfc: string;
    nombre: string;
    domicilioFiscalReceptor: string;
    residenciaFiscal?: string;
    numRegIdTrib?: string;
    regimenFiscalReceptor: string;
    usoCfdi: string;
  };
  conceptos: ConceptoLeido[];
  impuestos?: {
    totalImpuestosRetenidos?: string;
    totalImpuestosTrasladados?: string;
    retenciones: { impuesto: string; importe: string }[];
    traslados: TrasladoLeido[];
  };
  timbre?: TimbreLeido;
  /** Namespaces of the complements besides the timbre (e.g. nómina, pagos). */
  complementos: string[];
  /** Those complements' elements, for the templates that read them (nómina: ./nomina12.ts). */
  complementoNodos: XmlNodo[];
}

/** Reads `xml` (a CFDI 4.0, as text or already parsed by arbolXml); throws CfdiXmlError with every problem found. */
export function leerCfdi(xml: string | XmlNodo): CfdiLeido {
  const root = typeof xml === 'string' ? tree(xml) : xml;
  // The namespace decides the version; a Version="4.0" in CFDI 3.3's namespace is neither (cfdv40.xsd refuses it).
  if (root.local === 'Comprobante' && root.uri === NS_CFDI33 && root.attrs.Version !== '3.3')
    throw new CfdiXmlError([
      {
        msg: `Comprobante@Version '${root.attrs.Version ?? ''}' in namespace ${NS_CFDI33} (CFDI 3.3's): a CFDI 4.0 is in namespace ${NS_CFDI40}`,
        type: 'cfdi_namespace',
      },
    ]);
  if (root.local === 'Comprobante' && root.uri === NS_CFDI33)
    throw new CfdiXmlError([
      {
        msg: 'CFDI 3.3 is not accepted: only CFDI 4.0 (namespace http://www.sat.gob.mx/cfd/4), mandatory since 2023-04-01',
        type: 'cfdi_version',
      },
    ]);
  if (root.local !== 'Comprobante' || root.uri !== NS_CFDI40)
    throw new CfdiXmlError([
      {
        msg: `The root element must be Comprobante in namespace ${NS_CFDI40}; found ${root.local}${root.uri ? ` in ${root.uri}` : ' without a namespace'}`,
        type: 'cfdi_namespace',
      },
    ]);

  const problems: CfdiXmlProblem[] = [];
  const path = (el: El, trail: string) => atributos(el, trail, problems);

  const c = path(root, 'Comprobante');
  if (root.attrs.Version !== '4.0')
    problems.push({
      msg: `Comprobante@Version must be 4.0, not '${root.attrs.Version ?? ''}'`,
      type: 'cfdi_version',
    });

  const need = (el: El | undefined, name: string): El => {
    if (!el) problems.push({ msg: `${name} is required`, type: 'cfdi_missing' });
    return el ?? { uri: NS_CFDI40, local: name, attrs: {}, children: [] };
  };
  const emisorEl = need(child(root, NS_CFDI40, 'Emisor'), 'Comprobante/Emisor');
  const receptorEl = need(child(root, NS_CFDI40, 'Receptor'), 'Comprobante/Receptor');
  const conceptosEl = need(child(root, NS_CFDI40, 'Conceptos'), 'Comprobante/Conceptos');
  const e = path(emisorEl, 'Emisor');
  const r = path(receptorEl, 'Receptor');

  const traslado = (el: El, trail: string, conBase: boolean): TrasladoLeido => {
    const t = path(el, trail);
    const tipoFactor = t.req('TipoFactor');
    return {
      base: conBase ? t.req('Base') : (t.opt('Base') ?? ''),
      impuesto: t.req('Impuesto'),
      tipoFactor,
      tasaOCuota: tipoFactor === 'Exento' ? undefined : t.req('TasaOCuota'),
      importe: tipoFactor === 'Exento' ? undefined : t.req('Importe'),
    };
  };

  const conceptos = children(conceptosEl, NS_CFDI40, 'Concepto').map((k, i): ConceptoLeido => {
    const trail = `Concepto[${i + 1}]`;
    const p = path(k, trail);
    const imp = child(k, NS_CFDI40, 'Impuestos');
    return {
      claveProdServ: p.req('ClaveProdServ'),
      noIdentificacion: p.opt('NoIdentificacion'),
      cantidad: p.req('Cantidad'),
      claveUnidad: p.req('ClaveUnidad'),
      unidad: p.opt('Unidad'),
      descripcion: p.req('Descripcion'),
      valorUnitario: p.req('ValorUnitario'),
      importe: p.req('Importe'),
      descuento: p.opt('Descuento'),
      objetoImp: p.req('ObjetoImp'),
      traslados: children(child(imp, NS_CFDI40, 'Traslados'), NS_CFDI40, 'Traslado').map((t, j) =>
        traslado(t, `${trail}/Traslado[${j + 1}]`, true),
      ),
      retenciones: children(child(imp, NS_CFDI40, 'Retenciones'), NS_CFDI40, 'Retencion').map((t, j) => {
        const q = path(t, `${trail}/Retencion[${j + 1}]`);
        return {
          base: q.req('Base'),
          impuesto: q.req('Impuesto'),
          tipoFactor: q.req('TipoFactor'),
          tasaOCuota: q.req('TasaOCuota'),
          importe: q.req('Importe'),
        };
      }),
      extras: k.children.flatMap((x) =>
        x.uri === NS_CFDI40 && x.local === 'ComplementoConcepto'
          ? x.children
          : x.uri === NS_CFDI40 && x.local === 'Impuestos'
            ? []
            : [x],
      ),
    };
  });
  if (conceptosEl.children.length && !conceptos.length)
    problems.push({ msg: 'Conceptos has no Concepto in the CFDI 4.0 namespace', type: 'cfdi_missing' });
  else if (!conceptos.length)
    problems.push({ msg: 'Comprobante/Conceptos/Concepto is required', type: 'cfdi_missing' });

  const impEl = child(root, NS_CFDI40, 'Impuestos');
  const impuestos = impEl && {
    totalImpuestosRetenidos: path(impEl, 'Impuestos').opt('TotalImpuestosRetenidos'),
    totalImpuestosTrasladados: path(impEl, 'Impuestos').opt('TotalImpuestosTrasladados'),
    retenciones: children(child(impEl, NS_CFDI40, 'Retenciones'), NS_CFDI40, 'Retencion').map((t, j) => {
      const q = path(t, `Impuestos/Retencion[${j + 1}]`);
      return { impuesto: q.req('Impuesto'), importe: q.req('Importe') };
    }),
    traslados: children(child(impEl, NS_CFDI40, 'Traslados'), NS_CFDI40, 'Traslado').map((t, j) =>
      traslado(t, `Impuestos/Traslado[${j + 1}]`, true),
    ),
  };

  const complementoEls = children(root, NS_CFDI40, 'Complemento').flatMap((x) => x.children);
  const timbre = leerTimbre(complementoEls, problems);

  const globalEl = child(root, NS_CFDI40, 'InformacionGlobal');
  const g = globalEl && path(globalEl, 'InformacionGlobal');
  const leido: CfdiLeido = {
    serie: c.opt('Serie'),
    folio: c.opt('Folio'),
    fecha: c.req('Fecha'),
    sello: c.opt('Sello') ?? '',
    formaPago: c.opt('FormaPago'),
    noCertificado: c.req('NoCertificado'),
    condicionesDePago: c.opt('CondicionesDePago'),
    subTotal: c.req('SubTotal'),
    descuento: c.opt('Descuento'),
    moneda: c.req('Moneda'),
    tipoCambio: c.opt('TipoCambio'),
    total: c.req('Total'),
    tipoDeComprobante: c.req('TipoDeComprobante'),
    exportacion: c.req('Exportacion'),
    metodoPago: c.opt('MetodoPago'),
    lugarExpedicion: c.req('LugarExpedicion'),
    confirmacion: c.opt('Confirmacion'),
    informacionGlobal: g && {
      periodicidad: g.req('Periodicidad'),
      meses: g.req('Meses'),
      anio: g.req('Año'),
    },
    relacionados: children(root, NS_CFDI40, 'CfdiRelacionados').map((x) => ({
      tipoRelacion: path(x, 'CfdiRelacionados').req('TipoRelacion'),
      uuids: children(x, NS_CFDI40, 'CfdiRelacionado').map((u, j) =>
        path(u, `CfdiRelacionado[${j + 1}]`).req('UUID'),
      ),
    })),
    emisor: { rfc: e.req('Rfc'), nombre: e.req('Nombre'), regimenFiscal: e.req('RegimenFiscal') },
    receptor: {
      rfc: r.req('Rfc'),
      nombre: r.req('Nombre'),
      domicilioFiscalReceptor: r.req('DomicilioFiscalReceptor'),
      residenciaFiscal: r.opt('ResidenciaFiscal'),
      numRegIdTrib: r.opt('NumRegIdTrib'),
      regimenFiscalReceptor: r.req('RegimenFiscalReceptor'),
      usoCfdi: r.req('UsoCFDI'),
    },
    conceptos,
    impuestos,
    timbre,
    complementos: complementoEls.filter((x) => !esTimbre(x)).map((x) => x.uri),
    complementoNodos: complementoEls.filter((x) => !esTimbre(x)),
  };
  if (problems.length) throw new CfdiXmlError(problems);
  return leido;
}
