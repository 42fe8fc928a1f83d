// The "Download" control of the request and log explorers: links to the server's streaming
// export route with exactly the page's filters (no paging), in either format. The session cookie
// authenticates the browser's GET, and the server's Content-Disposition names the file.
import type { LogsQuery, RequestsQuery } from "@sightline/contracts";
import { buttonClass } from "../ui/Button";
import { trafficApi } from "../../lib/traffic-api";
import styles from "./Data.module.css";

const FORMATS = [
  { format: "csv", label: "CSV" },
  { format: "ndjson", label: "NDJSON" },
] as const;

export type DownloadLinksProps =
  | { project: string; kind: "requests"; params: RequestsQuery }
  | { project: string; kind: "logs"; params: LogsQuery };

export function DownloadLinks(props: DownloadLinksProps) {
  const { project, kind } = props;
  return (
    <span className={styles.downloads} role="group" aria-label={`Download the matching ${kind}`}>
      <span aria-hidden="true">Download</span>
      {FORMATS.map(({ format, label }) => (
        <a
          key={format}
          className={buttonClass({ variant: "secondary", size: "sm" })}
          href={
            props.kind === "requests"
              ? trafficApi.exportUrl(project, "requests", props.params, format)
              : trafficApi.exportUrl(project, "logs", props.params, format)
          }
          download
          aria-label={`Download the matching ${kind} as ${label}`}
        >
          {label}
        </a>
      ))}
    </span>
  );
}
