// Every complement a CFDI carries, printed: none is dropped. Pagos 2.0 and Nómina 1.2 have their own layouts
// (./pagos20.ts, ./nomina12.ts), Impuestos locales enters the totals (./implocal.ts) and the TimbreFiscalDigital
// the timbre; every other complement — Carta Porte 3.1/3.0/2.0, Comercio Exterior 2.0/1.1, INE, Donatarias, Leyendas
// Fiscales, Divisas, and any complement this code does not know — is printed from its own elements as sections:
// an element's attributes as label/value pairs, a repeated element (Ubicación, Mercancía, Fracción…) as its columns
// once and a line of values for each, nested elements as sub-sections. Values are printed as written, never reformatted, so what
// the paper shows is what SAT stamped.
//
// A complement whose namespace is not in KNOWN still prints the same way, under a notice that says it was not
// recognised, and its namespace is returned in `desconocidos` (the X-CFDI-Complementos response header): a
// business never receives a PDF that silently lacks part of its CFDI.
import type { XmlNodo } from './leer';

const SAT = 'http://www.sat.gob.mx/';

/** Complements we name (namespace → printed name). The version printed comes from the element itself. */
export const KNOWN: Readonly<Record<string, string>> = {
  [`${SAT}CartaPorte31`]: 'Carta Porte',
  [`${SAT}CartaPorte30`]: 'Carta Porte',
  [`${SAT}CartaPorte20`]: 'Carta Porte',
  [`${SAT}CartaPorte`]: 'Carta Porte',
  [`${SAT}ComercioExterior20`]: 'Comercio Exterior',
  [`${SAT}ComercioExterior11`]: 'Comercio Exterior',
  [`${SAT}ComercioExterior`]: 'Comercio Exterior',
  [`${SAT}implocal`]: 'Impuestos locales',
  [`${SAT}ine`]: 'INE (procesos electorales)',
  [`${SAT}donat`]: 'Donatarias',
  [`${SAT}leyendasFiscales`]: 'Leyendas fiscales',
  [`${SAT}servicioparcialconstruccion`]: 'Servicios parciales de construcción',
  [`${SAT}vehiculousado`]: 'Enajenación de vehículo usado',
  [`${SAT}divisas`]: 'Compra venta de divisas',
  [`${SAT}TuristaPasajeroExtranjero`]: 'Turista pasajero extranjero',
  [`${SAT}iedu`]: 'Instituciones educativas privadas',
  [`${SAT}ventavehiculos`]: 'Venta de vehículos nuevos',
  [`${SAT}terceros`]: 'Por cuenta de terceros',
  [`${SAT}aerolineas`]: 'Aerolíneas',
  [`${SAT}ConsumoDeCombustibles11`]: 'Consumo de combustibles',
  [`${SAT}EstadoDeCuentaCombustible12`]: 'Estado de cuenta de combustibles',
  [`${SAT}certificadodestruccion`]: 'Certificado de destrucción',
  [`${SAT}detallista`]: 'Detallista',
  [`${SAT}notariospublicos`]: 'Notarios públicos',
  [`${SAT}arteantiguedades`]: 'Obras de arte plásticas y antigüedades',
  [`${SAT}pagoenespecie`]: 'Pago en especie',
  [`${SAT}pfic`]: 'Persona física integrante de coordinado',
  [`${SAT}registrofiscal`]: 'CFDI registro fiscal',
  [`${SAT}renovacionysustitucionvehiculos`]: 'Renovación y sustitución de vehículos',
  [`${SAT}valesdedespensa`]: 'Vales de despensa',
  [`${SAT}GastosHidrocarburos10`]: 'Gastos de hidrocarburos',
  [`${SAT}IngresosHidrocarburos10`]: 'Ingresos de hidrocarburos',
  [`${SAT}spei`]: 'SPEI de terceros a terceros',
  [`${SAT}Pagos20`]: 'Recepción de pagos',
  [`${SAT}nomina12`]: 'Nómina',
  // CFDI de Retenciones e información de pagos 2.0: its complements (still in retencionpago/1/… namespaces).
  [`${SAT}esquemas/retencionpago/1/arrendamientoenfideicomiso`]: 'Arrendamiento en fideicomiso',
  [`${SAT}esquemas/retencionpago/1/dividendos`]: 'Dividendos',
  [`${SAT}esquemas/retencionpago/1/enajenaciondeacciones`]: 'Enajenación de acciones',
  [`${SAT}esquemas/retencionpago/1/fideicomisonoempresarial`]: 'Fideicomiso no empresarial',
  [`${SAT}esquemas/retencionpago/1/intereses`]: 'Intereses',
  [`${SAT}esquemas/retencionpago/1/intereseshipotecarios`]: 'Intereses hipotecarios',
  [`${SAT}esquemas/retencionpago/1/operacionesconderivados`]: 'Operaciones con derivados',
  [`${SAT}esquemas/retencionpago/1/pagosaextranjeros`]: 'Pagos a extranjeros',
  [`${SAT}esquemas/retencionpago/1/planesderetiro11`]: 'Planes de retiro',
  [`${SAT}esquemas/retencionpago/1/planesderetiro`]: 'Planes de retiro',
  [`${SAT}esquemas/retencionpago/1/premios`]: 'Premios',
  [`${SAT}esquemas/retencionpago/1/sectorfinanciero`]: 'Sector financiero',
  [`${SAT}esquemas/retencionpago/1/PlataformasTecnologicas10`]: 'Servicios mediante plataformas tecnológicas',
};

/** Names that lose their accents or read poorly when split from CamelCase. */
const LABELS: Readonly<Record<string, string>> = {
  IdCCP: 'IdCCP',
  TranspInternac: 'Transporte internacional',
  TotalDistRec: 'Distancia total recorrida (km)',
  DistanciaRecorrida: 'Distancia recorrida (km)',
  Ubicacion: 'Ubicación',
  Ubicaciones: 'Ubicaciones',
  Mercancia: 'Mercancía',
  Mercancias: 'Mercancías',
  Descripcion: 'Descripción',
  FraccionArancelaria: 'Fracción arancelaria',
  NumTotalMercancias: 'Número total de mercancías',
  PesoBrutoTotal: 'Peso bruto total',
  UnidadPeso: 'Unidad de peso',
  BienesTransp: 'Bienes transportados',
  PesoEnKg: 'Peso (kg)',
  ValorMercancia: 'Valor de la mercancía',
  FechaHoraSalidaLlegada: 'Fecha y hora de salida/llegada',
  RFCRemitenteDestinatario: 'RFC remitente/destinatario',
  NombreRemitenteDestinatario: 'Nombre remitente/destinatario',
  IDUbicacion: 'ID ubicación',
  TipoUbicacion: 'Tipo de ubicación',
  PermSCT: 'Permiso SCT',
  NumPermisoSCT: 'Número de permiso SCT',
  IdentificacionVehicular: 'Identificación vehicular',
  ConfigVehicular: 'Configuración vehicular',
  PesoBrutoVehicular: 'Peso bruto vehicular (t)',
  PlacaVM: 'Placa',
  AnioModeloVM: 'Año del modelo',
  AseguraRespCivil: 'Aseguradora (responsabilidad civil)',
  PolizaRespCivil: 'Póliza (responsabilidad civil)',
  FiguraTransporte: 'Figura de transporte',
  TiposFigura: 'Figura',
  TipoFigura: 'Tipo de figura',
  RFCFigura: 'RFC',
  NumLicencia: 'Número de licencia',
  NombreFigura: 'Nombre',
  CodigoPostal: 'Código postal',
  Pais: 'País',
  Municipio: 'Municipio',
  Localidad: 'Localidad',
  Colonia: 'Colonia',
  ClaveDePedimento: 'Clave de pedimento',
  CertificadoOrigen: 'Certificado de origen',
  NumCertificadoOrigen: 'Número de certificado de origen',
  NumeroExportadorConfiable: 'Número de exportador confiable',
  Incoterm: 'Incoterm',
  Observaciones: 'Observaciones',
  TipoCambioUSD: 'Tipo de cambio USD',
  TotalUSD: 'Total USD',
  NoIdentificacion: 'No. identificación',
  CantidadAduana: 'Cantidad en aduana',
  UnidadAduana: 'Unidad de aduana',
  ValorUnitarioAduana: 'Valor unitario en aduana',
  ValorDolares: 'Valor en dólares',
  MotivoTraslado: 'Motivo del traslado',
  NumRegIdTrib: 'Número de registro de identidad tributaria',
  ResidenciaFiscal: 'Residencia fiscal',
  disposicionFiscal: 'Disposición fiscal',
  textoLeyenda: 'Texto de la leyenda',
  noAutorizacion: 'Número de autorización',
  fechaAutorizacion: 'Fecha de autorización',
  leyenda: 'Leyenda',
  TipoProceso: 'Tipo de proceso',
  TipoComite: 'Tipo de comité',
  ClaveEntidad: 'Clave de entidad',
  Ambito: 'Ámbito',
  IdContabilidad: 'Id de contabilidad',
  TotaldeTraslados: 'Total de traslados',
  TotaldeRetenciones: 'Total de retenciones',
  RfcACuentaTerceros: 'RFC',
  NombreACuentaTerceros: 'Nombre',
  RegimenFiscalACuentaTerceros: 'Régimen fiscal',
  DomicilioFiscalACuentaTerceros: 'Domicilio fiscal',
  ACuentaTerceros: 'A cuenta de terceros',
  InformacionAduanera: 'Información aduanera',
  NumeroPedimento: 'Pedimento',
  CuentaPredial: 'Cuenta predial',
  Numero: 'Número',
  Parte: 'Parte',
  // Carta Porte 2.0–3.1 and Comercio Exterior 2.0 names that lose an accent or are abbreviated.
  AnioEmbarcacion: 'Año de la embarcación',
  AseguraCarga: 'Aseguradora (carga)',
  AseguraMedAmbiente: 'Aseguradora (medio ambiente)',
  CantidadTransporta: 'Cantidad transportada',
  CargoPorTasacion: 'Cargo por tasación',
  ClaveSTCC: 'Clave STCC',
  CodigoTransportista: 'Código del transportista',
  CondicionesEspTransp: 'Condiciones especiales de transporte',
  CveMaterialPeligroso: 'Clave de material peligroso',
  CvesTransporte: 'Claves de transporte',
  DatosFabricante: 'Datos del fabricante',
  DatosFormulador: 'Datos del formulador',
  DatosMaquilador: 'Datos del maquilador',
  DenominacionDistintivaProd: 'Denominación distintiva del producto',
  DenominacionGenericaProd: 'Denominación genérica del producto',
  DescripEmbalaje: 'Descripción del embalaje',
  DescripGuiaIdentificacion: 'Descripción de la guía',
  DescripcionMateria: 'Descripción de la materia',
  DescripcionesEspecificas: 'Descripciones específicas',
  DetalleMercancia: 'Detalle de la mercancía',
  DocumentacionAduanera: 'Documentación aduanera',
  EntradaSalidaMerc: 'Entrada o salida de mercancía',
  FechaCaducidad: 'Fecha de caducidad',
  FechaCertificacionCCP: 'Fecha de certificación CCP',
  FolioImpoVUCEM: 'Folio de importación VUCEM',
  FormaFarmaceutica: 'Forma farmacéutica',
  GuiaCarro: 'Guía del carro',
  GuiasIdentificacion: 'Guías de identificación',
  IdCCPRelacionado: 'IdCCP relacionado',
  IdentDocAduanero: 'Identificador del documento aduanero',
  LineaNaviera: 'Línea naviera',
  LogisticaInversaRecoleccionDevolucion: 'Logística inversa (recolección o devolución)',
  LoteMedicamento: 'Lote del medicamento',
  LugarContrato: 'Lugar del contrato',
  Matricula: 'Matrícula',
  MatriculaAeronave: 'Matrícula de la aeronave',
  MatriculaCarro: 'Matrícula del carro',
  MatriculaContenedor: 'Matrícula del contenedor',
  NacionalidadEmbarc: 'Nacionalidad de la embarcación',
  NavegacionTrafico: 'Navegación (tráfico)',
  NomQuimico: 'Nombre químico',
  NombreAgenteNaviero: 'Nombre del agente naviero',
  NombreAseg: 'Nombre de la aseguradora',
  NombreEmbarc: 'Nombre de la embarcación',
  NombreEmbarcador: 'Nombre del embarcador',
  NombreEstacion: 'Nombre de la estación',
  NombreIngredienteActivo: 'Nombre del ingrediente activo',
  NumAutorizacionNaviero: 'Número de autorización del naviero',
  NumCAS: 'Número CAS',
  NumCertITC: 'Número de certificado ITC',
  NumConocEmbarc: 'Número de conocimiento de embarque',
  NumEstacion: 'Número de estación',
  NumPedimento: 'Número de pedimento',
  NumPiezas: 'Número de piezas',
  NumPolizaSeguro: 'Número de póliza del seguro',
  NumPrecinto: 'Número de precinto',
  NumRegIdTribEmbarc: 'Número de registro de identidad tributaria del embarcador',
  NumRegIdTribFigura: 'Número de registro de identidad tributaria',
  NumRegSanPlagCOFEPRIS: 'Número de registro sanitario de plaguicidas COFEPRIS',
  NumViaje: 'Número de viaje',
  NumeroExterior: 'Número exterior',
  NumeroGuia: 'Número de guía',
  NumeroGuiaIdentificacion: 'Número de guía',
  NumeroInterior: 'Número interior',
  NumeroOMI: 'Número OMI',
  NumeroSerie: 'Número de serie',
  PaisOrigenDestino: 'País de origen o destino',
  ParteTransporte: 'Parte del transporte',
  PartesTransporte: 'Partes del transporte',
  PermisoImportacion: 'Permiso de importación',
  PermisoTempNavegacion: 'Permiso temporal de navegación',
  PesoContenedorVacio: 'Peso del contenedor vacío',
  PesoGuiaIdentificacion: 'Peso de la guía',
  PesoNetoMercancia: 'Peso neto de la mercancía',
  PlacaCCP: 'Placa',
  PlacaVMCCP: 'Placa',
  PolizaCarga: 'Póliza (carga)',
  PolizaMedAmbiente: 'Póliza (medio ambiente)',
  PrimaSeguro: 'Prima del seguro',
  RFCEmbarcador: 'RFC del embarcador',
  RFCImpo: 'RFC del importador',
  RazonSocialEmpImp: 'Razón social de la empresa importadora',
  RegimenAduanero: 'Régimen aduanero',
  RegimenAduaneroCCP: 'Régimen aduanero',
  RegimenesAduaneros: 'Regímenes aduaneros',
  RegistroISTMO: 'Registro ISTMO',
  RegistroSanitarioFolioAutorizacion: 'Registro sanitario o folio de autorización',
  RemolqueCCP: 'Remolque',
  RemolquesCCP: 'Remolques',
  ResidenciaFiscalEmbarc: 'Residencia fiscal del embarcador',
  ResidenciaFiscalFigura: 'Residencia fiscal',
  SubModelo: 'Submodelo',
  SubTipoRem: 'Subtipo de remolque',
  SubTipoRemCCP: 'Subtipo de remolque',
  TipoCarga: 'Tipo de carga',
  TipoCarro: 'Tipo de carro',
  TipoContenedor: 'Tipo de contenedor',
  TipoDeServicio: 'Tipo de servicio',
  TipoDeTrafico: 'Tipo de tráfico',
  TipoDerechoDePaso: 'Tipo de derecho de paso',
  TipoDocumento: 'Tipo de documento',
  TipoEmbarcacion: 'Tipo de embarcación',
  TipoEstacion: 'Tipo de estación',
  TipoMateria: 'Tipo de materia',
  ToneladasNetasCarro: 'Toneladas netas del carro',
  TransporteAereo: 'Transporte aéreo',
  TransporteMaritimo: 'Transporte marítimo',
  UUIDComercioExt: 'UUID del comercio exterior',
  UbicacionPoloDestino: 'Ubicación del polo de destino',
  UbicacionPoloOrigen: 'Ubicación del polo de origen',
  UnidadPesoMerc: 'Unidad de peso de la mercancía',
  UnidadesDeArqBruto: 'Unidades de arqueo bruto',
  UsoAutorizado: 'Uso autorizado',
  ViaEntradaSalida: 'Vía de entrada o salida',
  Curp: 'CURP',
  IDDestino: 'ID destino',
  IDOrigen: 'ID origen',
  version: 'Versión',
  Version: 'Versión',
};

/** A printable label of an XML name: our wording when we have one, else its CamelCase split ("PesoNetoTotal" → "Peso neto total"). */
export function etiqueta(name: string): string {
  const known = LABELS[name];
  if (known) return known;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_]+/)
    .filter(Boolean);
  return words
    .map((w, i) =>
      i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : /^[A-Z0-9]+$/.test(w) ? w : w.toLowerCase(),
    )
    .join(' ');
}

export interface Campo {
  etiqueta: string;
  valor: string;
}

/**
 * One printed block of a complement: a heading, its attributes in one line ("Label: value · Label: value"), and for
 * a repeated element its lines of values. `linea`, `tabla.comunes` and `tabla.filas` are HTML, ready to print (`| safe`):
 * every value escaped here (it comes from the caller's XML), a short hyphenated value (a date, a key) in
 * `<span class="nw">` so it never breaks — Chromium may break a line after any hyphen, and pdftotext then joins
 * "2023-06-" and "14" without it. Plain runs of text otherwise: each change of style within a line is one more text
 * run for Chromium to lay out, paint and tag in the PDF; and built here, not by a template macro per line, because 50
 * mercancías through a macro cost the template more than the rest of the invoice (bench/cfdi-complementos.bench.ts).
 */
export interface Bloque {
  titulo: string;
  /** 0: the complement's root; deeper elements count up (the template indents nothing past 2). */
  nivel: number;
  /** HTML; '' for a wrapper (no attributes), which prints only as the heading of what it holds. */
  linea: string;
  texto?: string;
  /**
   * A repeated element (Ubicación, Mercancía, Fracción…): `columnas` once (text), as a table's header, then `filas`:
   * one numbered line per occurrence with only its values in that order ("—" where it has none), the lines separated
   * by "\n" (the template keeps them with white-space: pre-line), after `comunes` (the columns whose value is the
   * same in every occurrence, said once as "Label: value"; '' when none). Lines of values, not a table: 50
   * mercancías as a table of cells doubled the render time, and their labels repeated on every line cost as much
   * again as the values.
   */
  tabla?: { columnas: string; comunes: string; filas: string };
}

/** Between the values of a line (and the names of the columns): a value may hold "·" ("Domicilio · Calle"). */
export const SEPARADOR = ' | ';

const ENTIDADES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const ESPECIALES = /[&<>"']/;
/** `s` as HTML text (most values hold none of the five characters: returned as they are). */
export const escaparHtml = (s: string) =>
  ESPECIALES.test(s) ? s.replace(/[&<>"']/g, (c) => ENTIDADES[c]!) : s;

const esEntero = (v: string) => v.includes('-') && v.length <= 40 && !/\s/.test(v);

/** A value as HTML: escaped, and unbroken when it is a short hyphenated one. */
const valorHtml = (v: string) => (esEntero(v) ? `<span class="nw">${escaparHtml(v)}</span>` : escaparHtml(v));

/** "Label: value · Label: value" as HTML. */
const paresHtml = (pares: readonly (readonly [string, string])[]) =>
  pares.map(([k, v]) => `${escaparHtml(k)}: ${valorHtml(v)}`).join(' · ');

export interface SeccionComplemento {
  titulo: string;
  namespace: string;
  conocido: boolean;
  bloques: Bloque[];
}

const campos = (el: XmlNodo): Campo[] =>
  Object.entries(el.attrs).map(([k, v]) => ({ etiqueta: etiqueta(k), valor: v.trim() }));

function grupos(el: XmlNodo): [string, XmlNodo[]][] {
  const m = new Map<string, XmlNodo[]>();
  for (const c of el.children) {
    const k = `${c.uri} ${c.local}`;
    const xs = m.get(k);
    if (xs) xs.push(c);
    else m.set(k, [c]);
  }
  return [...m.values()].map((xs) => [xs[0]!.local, xs]);
}

/** The only child named `local` of `e`, if it has exactly one. */
function unico(e: XmlNodo, local: string): XmlNodo | undefined {
  let found: XmlNodo | undefined;
  for (const c of e.children)
    if (c.local === local) {
      if (found) return undefined;
      found = c;
    }
  return found;
}

function bloques(el: XmlNodo, titulo: string, nivel: number, out: Bloque[]): void {
  const linea = paresHtml(campos(el).map((c) => [c.etiqueta, c.valor] as const));
  const texto = el.text?.trim();
  // A wrapper (no attributes, no text) prints only as the heading of what it holds.
  out.push({ titulo, nivel, linea, ...(texto ? { texto } : {}) });
  for (const [local, els] of grupos(el)) {
    const nombre = etiqueta(local);
    if (els.length === 1) {
      bloques(els[0]!, nombre, nivel + 1, out);
      continue;
    }
    const keys = [...new Set(els.flatMap((e) => Object.keys(e.attrs)))];
    // Children that are single leaves (e.g. a Mercancía's one CantidadTransporta) become columns of the row, so 50
    // mercancías stay 50 rows instead of 100 blocks.
    const plegables = els.every((e) =>
      e.children.every((c) => !c.children.length && !c.text?.trim() && unico(e, c.local) === c),
    );
    // [child, attribute] of each folded column.
    const sub: [string, string][] = [];
    if (plegables) {
      const seen = new Set<string>();
      for (const e of els)
        for (const c of e.children)
          for (const k of Object.keys(c.attrs))
            if (!seen.has(`${c.local} ${k}`)) {
              seen.add(`${c.local} ${k}`);
              sub.push([c.local, k]);
            }
    }
    if (keys.length || sub.length) {
      const columnas = [...keys.map(etiqueta), ...sub.map(([c, k]) => `${etiqueta(c)} · ${etiqueta(k)}`)];
      const filas = els.map((e) => [
        ...keys.map((k) => e.attrs[k]?.trim() ?? ''),
        ...sub.map(([local, k]) => unico(e, local)?.attrs[k]?.trim() ?? ''),
      ]);
      const comun = columnas.map((_, c) => filas[0]![c] !== '' && filas.every((f) => f[c] === filas[0]![c]));
      const propias = columnas.flatMap((_, c) => (comun[c] ? [] : [c]));
      out.push({
        titulo: `${nombre} (${els.length})`,
        nivel: nivel + 1,
        linea: '',
        tabla: {
          columnas: propias.map((c) => columnas[c]!).join(SEPARADOR),
          comunes: paresHtml(columnas.flatMap((col, c) => (comun[c] ? [[col, filas[0]![c]!] as const] : []))),
          filas: filas
            .map((f, i) => `${i + 1}. ${propias.map((c) => valorHtml(f[c] || '—')).join(SEPARADOR)}`)
            .join('\n'),
        },
      });
    }
    els.forEach((e, i) => {
      if (plegables) return;
      if (e.children.length || e.text?.trim())
        for (const [sub, subs] of grupos(e))
          subs.forEach((s, j) =>
            bloques(
              s,
              `${nombre} ${i + 1} · ${etiqueta(sub)}${subs.length > 1 ? ` ${j + 1}` : ''}`,
              nivel + 2,
              out,
            ),
          );
      if (!keys.length && !e.children.length && e.text?.trim())
        out.push({ titulo: `${nombre} ${i + 1}`, nivel: nivel + 1, linea: '', texto: e.text.trim() });
    });
  }
}

/** How the complement names itself: "Carta Porte 3.1", or for one we do not know, its element and namespace. */
function tituloDe(el: XmlNodo): { titulo: string; conocido: boolean } {
  const nombre = KNOWN[el.uri];
  const version = el.attrs.Version ?? el.attrs.version;
  if (nombre)
    return { titulo: `Complemento ${nombre}${version ? ` ${version.trim()}` : ''}`, conocido: true };
  return { titulo: `Complemento ${el.local}${version ? ` ${version.trim()}` : ''}`, conocido: false };
}

/** The printed sections of `nodos` (a CFDI's complements, those printed elsewhere excluded by the caller). */
export function seccionesComplementos(nodos: readonly XmlNodo[]): SeccionComplemento[] {
  return nodos.map((el) => {
    const { titulo, conocido } = tituloDe(el);
    const out: Bloque[] = [];
    bloques(el, titulo, 0, out);
    // The root block's heading is the section's title.
    return { titulo, namespace: el.uri, conocido, bloques: out };
  });
}

/** A concept-level node (ACuentaTerceros, InformacionAduanera, CuentaPredial, Parte, iedu…) in one line. */
export function lineaNodo(el: XmlNodo): string {
  const nombre = KNOWN[el.uri] && !el.uri.endsWith('/cfd/4') ? KNOWN[el.uri]! : etiqueta(el.local);
  const partes = campos(el).map((c) => `${c.etiqueta} ${c.valor}`);
  if (el.text?.trim()) partes.push(el.text.trim());
  const hijos = el.children.map(lineaNodo);
  return `${nombre}: ${[...partes, ...hijos.map((h) => `(${h})`)].join(', ')}`;
}

/** Namespaces of nodes not in KNOWN (nor CFDI's own): what the X-CFDI-Complementos header names. */
export function desconocidos(nodos: readonly XmlNodo[], propios: readonly string[] = []): string[] {
  return [
    ...new Set(
      nodos.filter((n) => !KNOWN[n.uri] && !propios.includes(n.uri)).map((n) => `${n.local} (${n.uri})`),
    ),
  ];
}
