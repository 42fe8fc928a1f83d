// `sightline projects`: the projects the token reaches, with the caller's role in each.
import type { ProjectListItem } from "@sightline/contracts";
import type { Command } from "commander";
import { openClient } from "../client-run.js";
import { formatInstant } from "../output.js";
import type { CliContext } from "../program.js";

export function registerProjectsCommand(program: Command, context: CliContext): void {
  program
    .command("projects")
    .description("list your projects (use a slug with --project)")
    .action(async (_flags: unknown, command: Command) => {
      const run = await openClient(command, context);
      const projects = await run.api.listProjects();
      run.output.list<ProjectListItem>(
        projects,
        [
          { header: "SLUG", value: (project) => project.slug },
          { header: "NAME", value: (project) => project.name, flex: true },
          { header: "ROLE", value: (project) => project.role },
          { header: "APPS", value: (project) => String(project.app_count), align: "right" },
          { header: "CREATED", value: (project) => formatInstant(project.created_at) },
        ],
        "No projects yet.",
      );
    });
}
