// Creating a project: a name (its slug is derived by the server and never changes on rename)
// and an optional description; then straight on to the project's setup.
import type { CreateProjectBody, Project } from "@sightline/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { Button, buttonClass } from "../../components/ui/Button";
import { DescriptionField, NameField } from "../../components/forms/NameFields";
import { FailureNotice } from "../../components/ui/Feedback";
import { Card, Page, PageHeader, Stack } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { api, isApiError } from "../../lib/api-client";
import { keys } from "../../lib/queries";
import styles from "./Projects.module.css";

export function NewProjectPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const create = useMutation({
    mutationFn: (body: CreateProjectBody) => api.post<Project>("/projects", body),
    onSuccess: async (project) => {
      await queryClient.invalidateQueries({ queryKey: keys.projects });
      queryClient.setQueryData(keys.project(project.slug), project);
      toast(`Project “${project.name}” created`);
      await navigate({ to: "/projects/$project/setup", params: { project: project.slug } });
    },
  });
  const error = isApiError(create.error) ? create.error : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) });
  };
  return (
    <Page narrow>
      <PageHeader
        title="New project"
        description="Name it after the product or team whose APIs you want to watch. You can rename it later; its address stays the same."
      />
      <Card>
        <form onSubmit={submit}>
          <Stack>
            <NameField
              label="Project name"
              value={name}
              onValue={setName}
              error={error?.fieldMessage("/name")}
              placeholder="Shop"
              autoFocus
            />
            <DescriptionField
              value={description}
              onValue={setDescription}
              error={error?.fieldMessage("/description")}
              placeholder="Public REST API of the shop"
            />
            <FailureNotice error={error} fieldsInline />
            <div className={styles.formActions}>
              <Link to="/projects" className={buttonClass()}>
                Cancel
              </Link>
              <Button type="submit" variant="primary" busy={create.isPending} disabled={name.trim() === ""}>
                Create project
              </Button>
            </div>
          </Stack>
        </form>
      </Card>
    </Page>
  );
}
