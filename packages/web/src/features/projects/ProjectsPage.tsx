// The projects list: name, slug, apps and creation date per project; an empty state that
// leads straight to creating the first one.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { AppWindow, CalendarDays, FolderPlus, Plus, ShieldCheck } from "lucide-react";
import { initialsOf, Monogram } from "../../components/ui/Avatar";
import { buttonClass } from "../../components/ui/Button";
import { EmptyState, ErrorPanel, Skeleton } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { ROLE_LABELS } from "../../lib/access";
import { formatDate, pluralise } from "../../lib/format";
import { projectsQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import styles from "./Projects.module.css";

function NewProjectLink({ primary = true }: { primary?: boolean }) {
  return (
    <Link to="/projects/new" className={buttonClass({ variant: primary ? "primary" : "secondary" })}>
      <Plus size={16} aria-hidden="true" />
      New project
    </Link>
  );
}

export function ProjectsPage() {
  const projects = useQuery(projectsQuery);
  const timeZone = useTimeZone();
  const hasProjects = (projects.data?.length ?? 0) > 0;
  return (
    <Page>
      <PageHeader
        title="Projects"
        description="A project groups the apps you monitor and the API keys they send records with."
        actions={hasProjects ? <NewProjectLink /> : undefined}
      />
      {projects.isPending ? (
        <ul className={styles.grid} aria-busy="true" aria-label="Loading projects">
          {[0, 1, 2].map((i) => (
            <li key={i} className={styles.skeletonCard}>
              <Skeleton width="w60" />
              <Skeleton width="w80" />
              <Skeleton width="w40" />
            </li>
          ))}
        </ul>
      ) : projects.isError ? (
        <ErrorPanel what="your projects" error={projects.error} onRetry={() => void projects.refetch()} />
      ) : !hasProjects ? (
        <Card>
          <EmptyState icon={FolderPlus} title="No projects yet" action={<NewProjectLink />}>
            Create a project to get an API key, then send your first request record. It takes about a minute.
          </EmptyState>
        </Card>
      ) : (
        <ul className={styles.grid}>
          {projects.data.map((project) => (
            <li key={project.id}>
              <Link to="/projects/$project" params={{ project: project.slug }} className={styles.card}>
                <div className={styles.cardTop}>
                  <Monogram size="lg">{initialsOf(project.name)}</Monogram>
                  <span className={styles.names}>
                    <span className={styles.name}>{project.name}</span>
                    <span className={styles.slug}>{project.slug}</span>
                  </span>
                </div>
                <p className={[styles.description, project.description ? "" : styles.placeholder].join(" ")}>
                  {project.description || "No description"}
                </p>
                <div className={styles.meta}>
                  <span>
                    <AppWindow size={14} aria-hidden="true" />
                    {pluralise(project.app_count, "app")}
                  </span>
                  <span>
                    <ShieldCheck size={14} aria-hidden="true" />
                    {ROLE_LABELS[project.role].label}
                  </span>
                  <span>
                    <CalendarDays size={14} aria-hidden="true" />
                    Created {formatDate(project.created_at, timeZone)}
                  </span>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
