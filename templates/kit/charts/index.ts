// Server-side charts as SVG scenes (no JavaScript in the page, no network): bar, donut, pareto and 100 % stacked
// bars in the house style. Why our own builders and not a chart library: the charts are few and simple; a library
// that renders SVG without a DOM (ECharts SSR, Vega) adds megabytes to the Lambda image and formats numbers its own
// way, while these take labels already formatted with exact decimals for es-MX and hand the template shapes whose
// text it autoescapes (scene.ts). Templates draw a Chart with the `svg` macro in their source.
export type { Attr, Chart, Shape } from './scene';
export { barChart, type BarItem } from './bar';
export { donutChart, ringSegment, type DonutSlice } from './donut';
export { paretoChart } from './pareto';
export { stackedBars, type StackedRow } from './stacked';
export { fitText, textWidth } from './text';
