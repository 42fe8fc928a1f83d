// The dashboard's charts: uPlot time series and HTML bar lists (import from here).
export { BarList, type BarItem, type BarListProps } from "./BarList";
export { type ChartSeries, shiftedValues, stackValues } from "./chart-data";
export { type TimeRange, TimeSeriesChart, type TimeSeriesChartProps } from "./TimeSeriesChart";
