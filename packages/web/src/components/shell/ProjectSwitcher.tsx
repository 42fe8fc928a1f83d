// The sidebar's project switcher: the current project, every other one, and "New project".
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Check, ChevronsUpDown, LayoutGrid, Plus } from "lucide-react";
import { projectsQuery } from "../../lib/queries";
import { initialsOf, Monogram } from "../ui/Avatar";
import { MenuContent, MenuItem, MenuLabel, MenuRoot, MenuSeparator, MenuTrigger } from "../ui/Menu";
import styles from "./Shell.module.css";

export function ProjectSwitcher({ current }: { current: string | undefined }) {
  const projects = useQuery(projectsQuery);
  const navigate = useNavigate();
  const currentProject = projects.data?.find((project) => project.slug === current);
  const name = currentProject?.name ?? current ?? "No project selected";
  return (
    <MenuRoot>
      <MenuTrigger asChild>
        <button type="button" className={styles.switcher}>
          <Monogram>{current === undefined ? <LayoutGrid size={14} /> : initialsOf(name)}</Monogram>
          <span className={styles.switcherText}>
            <span className={styles.switcherLabel}>Project</span>
            <span className={styles.switcherName}>{name}</span>
          </span>
          <ChevronsUpDown size={15} aria-hidden="true" />
        </button>
      </MenuTrigger>
      <MenuContent label="Projects">
        <MenuLabel>Projects</MenuLabel>
        {projects.isPending ? <MenuItem disabled>Loading…</MenuItem> : null}
        {projects.isError ? <MenuItem disabled>Could not load projects</MenuItem> : null}
        {projects.data?.map((project) => (
          <MenuItem
            key={project.slug}
            onSelect={() => void navigate({ to: "/projects/$project", params: { project: project.slug } })}
          >
            {project.slug === current ? <Check size={15} aria-hidden="true" /> : <span aria-hidden="true" />}
            {project.name}
          </MenuItem>
        ))}
        <MenuSeparator />
        <MenuItem onSelect={() => void navigate({ to: "/projects" })}>
          <LayoutGrid size={15} aria-hidden="true" />
          All projects
        </MenuItem>
        <MenuItem onSelect={() => void navigate({ to: "/projects/new" })}>
          <Plus size={15} aria-hidden="true" />
          New project
        </MenuItem>
      </MenuContent>
    </MenuRoot>
  );
}
