// The header of a streamed explorer (Requests, Logs): its title and description, the download
// links for exactly the page's filters, and the live switch.
import { PageHeader } from "../ui/Surface";
import { DownloadLinks, type DownloadLinksProps } from "./DownloadLinks";
import { LiveToggle, type LiveToggleProps } from "./LiveToggle";

const TITLES: Record<DownloadLinksProps["kind"], string> = { requests: "Requests", logs: "Logs" };

export function StreamHeader({
  description,
  download,
  live,
}: {
  description: string;
  download: DownloadLinksProps;
  live: LiveToggleProps;
}) {
  return (
    <PageHeader
      title={TITLES[download.kind]}
      description={description}
      actions={
        <>
          <DownloadLinks {...download} />
          <LiveToggle {...live} />
        </>
      }
    />
  );
}
