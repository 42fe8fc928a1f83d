// The primary "New …" button of a project's list page: a link to the page that creates one.
import { Link } from "@tanstack/react-router";
import { Plus } from "lucide-react";
import type { ReactNode } from "react";
import { buttonClass } from "./Button";

export type NewPage =
  "/projects/$project/alerts/new" | "/projects/$project/slos/new" | "/projects/$project/uptime/new";

export function NewLink({ to, project, children }: { to: NewPage; project: string; children: ReactNode }) {
  return (
    <Link className={buttonClass({ variant: "primary" })} to={to} params={{ project }}>
      <Plus size={16} aria-hidden="true" />
      {children}
    </Link>
  );
}
