// balance: balance sheet (calc.ts computes what it shows; sheets.ts builds the xlsx).
import { defineTemplate } from '../kit/template-types';
import { calcBalance } from './calc';
import { schema, type BalanceData } from './schema';
import { sheets } from './sheets';
import sample from './sample.json';

export const balance = defineTemplate({
  meta: {
    slug: 'balance',
    title: 'Balance general',
    purpose: 'Balance general (estado de situación financiera), con comparativo opcional',
    formats: ['pdf', 'xlsx', 'zip'],
    page: { size: 'A4', landscape: false, margin: '12mm' },
  },
  schema,
  sample: sample as BalanceData,
  view: (data) => ({ ...data, calc: calcBalance(data) }),
  sheets,
  title: (data) => `Balance general — ${data.empresa}`,
});
