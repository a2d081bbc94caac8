// Every attribute and element of Carta Porte 2.0–3.1 and Comercio Exterior 2.0 (SAT's XSDs) prints under a Spanish
// label with its accents and without SAT's abbreviations: the split of "NumeroExterior" or "SubTipoRem" is no label.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { etiqueta } from '../../templates/kit/cfdi/complementos';
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
