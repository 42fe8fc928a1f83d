// Pure shaping of an anomaly rule's band for the chart: the windows that have a band (a baseline
// exists and the volume sufficed), the value against expected/lower/upper, and counts of the rest.
import type { AlertBand } from "@sightline/contracts";

export interface BandChartData {
  readonly buckets: string[];
  readonly value: number[];
  readonly expected: number[];
  readonly lower: number[];
  readonly upper: number[];
  /** Windows outside the band (above or below it). */
  readonly outside: number;
  /** Windows without a band: no baseline yet, or too few requests to judge. */
  readonly withoutBand: number;
}

export function bandChartData(band: Pick<AlertBand, "points">): BandChartData {
  const drawn = band.points.filter(
    (point) =>
      point.expected !== null && point.lower !== null && point.upper !== null && point.value !== null,
  );
  return {
    buckets: drawn.map((point) => point.window_start),
    value: drawn.map((point) => point.value ?? 0),
    expected: drawn.map((point) => point.expected ?? 0),
    lower: drawn.map((point) => point.lower ?? 0),
    upper: drawn.map((point) => point.upper ?? 0),
    outside: band.points.filter((point) => point.status === "above" || point.status === "below").length,
    withoutBand: band.points.length - drawn.length,
  };
}
