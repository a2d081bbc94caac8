// Chart colours in the house style (templates/_partials/estilos.html.j2: navy accent #1f3a5f): a sequential blue
// ramp for ranked series, a warm accent for targets and reference lines, grey for "Otros"/remainders.
export const INK = '#1f2933';
export const SOFT = '#52606d';
export const FAINT = '#9aa5b1';
export const RULE = '#d9e2ec';
export const ACCENT = '#1f3a5f';
export const WARM = '#c8873a';
export const REST = '#c5ccd3';
export const RAMP = ['#1f3a5f', '#2f5f8f', '#4b83b6', '#79a6cf', '#a9c7e3', '#d3e3f1'];
