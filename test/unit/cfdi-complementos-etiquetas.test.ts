// Every attribute and element of Carta Porte 2.0–3.1 and Comercio Exterior 2.0 (SAT's XSDs) prints under a Spanish
// label with its accents and without SAT's abbreviations: the split of "NumeroExterior" or "SubTipoRem" is no label.
// And the lines a complement prints are HTML with every value of the caller's XML escaped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { etiqueta, seccionesComplementos } from '../../templates/kit/cfdi/complementos';
import { arbolXml } from '../../templates/kit/cfdi/leer';
import { SAT_DIR } from '../helpers/sat-xml';

const XSDS = [
  'cfd/CartaPorte/CartaPorte31.xsd',
  'cfd/CartaPorte/CartaPorte30.xsd',
  'cfd/CartaPorte/CartaPorte20.xsd',
  'cfd/ComercioExterior20/ComercioExterior20.xsd',
];
const names = [
  ...new Set(
    XSDS.flatMap((f) =>
      [...readFileSync(join(SAT_DIR, f), 'utf8').matchAll(/<xs:(?:attribute|element) name="(\w+)"/g)].map(
        (m) => m[1]!,
      ),
    ),
  ),
].sort();

/** Whole words (letters with accents count as letters) a label must not show: Spanish written without its accent,
 * and SAT's abbreviations. */
const word = (alternatives: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(${alternatives})(?![\\p{L}\\p{N}])`, 'iu');
const UNACCENTED = word(
  'Anio|Numero|Pais|Codigo|Descripcion|Regimen|Regimenes|Razon|Tasacion|Vacio|Guia|Guias|Linea|Matricula|Trafico|Estacion|Embarcacion|Logistica|Recoleccion|Devolucion|Farmaceutica|Poliza|Denominacion|Identificacion|Importacion|Navegacion|Certificacion|Autorizacion|Via|Mercancia|Ubicacion|Aereo|Maritimo|Especificas|Generica|Documentacion|Quimico',
);
const ABBREVIATED = word(
  'esp|transp|prod|rem|cve|cves|descrip|merc|ident|impo|embarc|med|temp|emp|imp|san|plag|doc|reg|trib|nom|conoc|cert|aseg|arq|ext|num',
);

it.each(names)('%s', (name) => {
  const label = etiqueta(name);
  expect(label).not.toMatch(UNACCENTED);
  expect(label).not.toMatch(ABBREVIATED);
});

it('negative control: a name without a label still splits, and the checks catch it', () => {
  expect(etiqueta('NumeroDeAndenPrueba')).toBe('Numero de anden prueba');
  expect(etiqueta('NumeroDeAndenPrueba')).toMatch(UNACCENTED);
  expect(etiqueta('CveAndenPrueba')).toMatch(ABBREVIATED);
});

describe("a complement's printed lines: HTML, every value escaped", () => {
  const [seccion] = seccionesComplementos([
    arbolXml(`<x:Propio xmlns:x="urn:x-prueba" Nota="&lt;b&gt;negrita&lt;/b&gt; &amp; &quot;comillas&quot; 'y'">
      <x:Fila Clave="A-&lt;1&gt;" Texto="uno &lt;i&gt;" Moneda="M&amp;N"/>
      <x:Fila Clave="B-2" Moneda="M&amp;N"/>
    </x:Propio>`),
  ]);
  const [raiz, filas] = seccion!.bloques;
  /** Markup other than our own unbreakable span. */
  const AJENO = /<(?!\/?span\b)/;

  it('attributes, the values common to every row and the rows', () => {
    expect(raiz!.linea).toBe('Nota: &lt;b&gt;negrita&lt;/b&gt; &amp; &quot;comillas&quot; &#39;y&#39;');
    expect(filas!.tabla).toEqual({
      columnas: 'Clave | Texto',
      comunes: 'Moneda: M&amp;N',
      filas: '1. <span class="nw">A-&lt;1&gt;</span> | uno &lt;i&gt;\n2. <span class="nw">B-2</span> | —',
    });
    for (const html of [raiz!.linea, filas!.tabla!.comunes, filas!.tabla!.filas])
      expect(html).not.toMatch(AJENO);
  });

  it('negative control: raw markup is caught', () => {
    expect('Nota: <b>negrita</b>').toMatch(AJENO);
    expect('<span class="nw">A-1</span>').not.toMatch(AJENO);
  });
});
