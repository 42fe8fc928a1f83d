// The "Download" control of the request and log explorers: links to the export route with
// exactly the page's filters (no paging), in either format. The session cookie authenticates
// the browser's GET, and the server's Content-Disposition names the file.
import type { ExportFormat } from "@sightline/contracts";
import { buttonClass } from "../../components/ui/Button";
import { trafficApi, type TrafficParams } from "./traffic-api";
import styles from "./Traffic.module.css";

const LABELS: Record<ExportFormat, string> = { csv: "CSV", ndjson: "NDJSON" };

export function DownloadLinks({
  project,
  kind,
  params,
}: {
  project: string;
  kind: "requests" | "logs";
  params: TrafficParams;
}) {
  return (
    <span className={styles.downloads} role="group" aria-label={`Download the matching ${kind}`}>
      <span aria-hidden="true">Download</span>
      {(Object.keys(LABELS) as ExportFormat[]).map((format) => (
        <a
          key={format}
          className={buttonClass({ variant: "secondary", size: "sm" })}
          href={trafficApi.exportUrl(project, kind, params, format)}
          download
          aria-label={`Download the matching ${kind} as ${LABELS[format]}`}
        >
          {LABELS[format]}
        </a>
      ))}
    </span>
  );
}
