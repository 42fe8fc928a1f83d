// The pages for what is not there: an unknown path, and a failure while loading a route.
import { Link } from "@tanstack/react-router";
import { Compass, RotateCcw } from "lucide-react";
import { isApiError } from "../../lib/api-client";
import { Button, buttonClass } from "../ui/Button";
import { EmptyState } from "../ui/Feedback";
import styles from "./Shell.module.css";

const toProjects = (
  <Link to="/projects" className={buttonClass({ variant: "primary" })}>
    Go to your projects
  </Link>
);

export function NotFoundPage() {
  return (
    <main className={styles.centerPage}>
      <EmptyState icon={Compass} title="Page not found" action={toProjects}>
        There is nothing at this address. It may have moved, or the link may be mistyped.
      </EmptyState>
    </main>
  );
}

export function RouteErrorPage({ error }: { error: unknown }) {
  const requestId = isApiError(error) ? error.requestId : undefined;
  return (
    <main className={styles.centerPage}>
      <EmptyState
        icon={RotateCcw}
        title="Something broke"
        action={
          <Button variant="primary" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
        }
      >
        {isApiError(error) ? error.detail : "The dashboard hit an unexpected problem."}
        {requestId ? ` (request id ${requestId})` : ""}
      </EmptyState>
    </main>
  );
}

/** A project slug that does not exist or that the person cannot see: one page, whatever the child. */
export function ProjectUnavailablePage({ slug }: { slug: string }) {
  return (
    <EmptyState icon={Compass} title="Project not found or no access" action={toProjects}>
      There is no project “{slug}” that you are a member of. Check the address, or ask a project owner to
      invite you.
    </EmptyState>
  );
}
