// Data of the `factura` template: the printed representation of a CFDI 4.0 invoice.
//
// The contract's shape is accepted exactly as shown (empresa, cliente, items[{concepto, cantidad, precio}],
// moneda), and so is the shape before issue #6 (rfc_emisor, rfc_cliente, serie, folio, fecha, tasa_iva,
// forma_pago, metodo_pago, notas, items[].unidad/clave). Every CFDI 4.0 field is optional on top: emisor and
// receptor data (RFC, régimen fiscal, códigos postales, uso CFDI), payment, exportación, tipo de cambio, per-item
// SAT keys, objeto de impuesto, descuentos, traslados and retenciones, and the timbre (UUID, certificates, sellos,
// fecha de timbrado, RFC del PAC) of an invoice already stamped.
//
// Checks, each a 400 item at its field: RFC shapes (and persona física/moral against régimen and uso CFDI),
// catalogue keys (c_RegimenFiscal, c_UsoCFDI, c_FormaPago, c_MetodoPago, c_Exportacion, c_ObjetoImp, c_Moneda,
// c_Impuesto, c_TasaOCuota), UUID and certificate numbers, generic-RFC rules, tipo de cambio with a foreign
// currency, PUE/PPD against forma de pago 99, the timbre's fields together, and the arithmetic: importes and totals
// the caller sends must equal the computed ones to the centavo (templates/kit/cfdi/calc.ts).
//
// The data's fields (./campos.ts, ./forma.ts) and the checks across them (./verificaciones.ts).
import type { z } from 'zod';
import { shape } from './forma';
import { crossChecks } from './verificaciones';

export const schema = shape.superRefine(crossChecks);

export type FacturaData = z.output<typeof schema>;
