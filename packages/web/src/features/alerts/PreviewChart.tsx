// The preview's chart: the rule's metric per window over 24 h with the threshold as a line.
// Until the shared time-series chart lands, the figures above it carry the preview.
import type { AlertMetric } from "@sightline/contracts";
import type { PreviewPoint } from "./preview";

export function PreviewChart(_props: {
  points: readonly PreviewPoint[];
  threshold: number | null;
  metric: AlertMetric;
  label: string;
}) {
  return null;
}
