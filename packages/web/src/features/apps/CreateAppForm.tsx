// Creating an app: a name, its framework (picks the snippet shown first) and its first
// environment, declared right away so it carries a colour before any record names it.
import type { App as AppRecord, Framework } from "@sightline/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { FrameworkSelect } from "../../components/forms/FrameworkSelect";
import { NameField } from "../../components/forms/NameFields";
import { TextField } from "../../components/ui/Field";
import { FailureNotice } from "../../components/ui/Feedback";
import { Grid2, Stack } from "../../components/ui/Surface";
import { ApiError, isApiError } from "../../lib/api-client";
import { keys } from "../../lib/queries";
import { appsApi, environmentsApi } from "../../lib/resources-api";

export interface NewApp {
  readonly name: string;
  readonly framework: Framework;
  readonly environment: string;
}

export function useCreateApp(project: string, onCreated: (app: AppRecord) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, framework, environment }: NewApp) => {
      const app = await appsApi.create(project, { name, framework });
      if (environment !== "") {
        try {
          await environmentsApi.create(project, app.slug, { name: environment });
        } catch (error) {
          if (!isApiError(error)) throw error;
          throw new ApiError({
            ...error,
            fieldErrors: [],
            detail: `The app “${app.name}” was created, but its environment was not: ${error.detail}`,
          });
        }
      }
      return app;
    },
    onSuccess: async (app) => {
      await queryClient.invalidateQueries({ queryKey: keys.apps(project) });
      await queryClient.invalidateQueries({ queryKey: keys.projects });
      onCreated(app);
    },
  });
}

/** The form's fields; the caller places the submit button (a card footer or a dialog's). */
export function CreateAppFields({
  error,
  formId,
  onSubmit,
  children,
}: {
  error: unknown;
  formId: string;
  onSubmit: (app: NewApp) => void;
  children?: ReactNode;
}) {
  const [name, setName] = useState("");
  const [framework, setFramework] = useState<Framework>("other");
  const [environment, setEnvironment] = useState("production");
  const problem = isApiError(error) ? error : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ name: name.trim(), framework, environment: environment.trim() });
  };
  return (
    <form id={formId} onSubmit={submit}>
      <Stack>
        <NameField
          label="App name"
          value={name}
          onValue={setName}
          error={problem?.fieldMessage("/name")}
          placeholder="Checkout API"
          hint="The service that handles the requests, e.g. Checkout API."
          autoFocus
        />
        <Grid2>
          <FrameworkSelect value={framework} onFramework={setFramework} />
          <TextField
            label="Environment"
            value={environment}
            onChange={(event) => setEnvironment(event.target.value)}
            maxLength={64}
            placeholder="production"
            hint="Where it runs; more appear as records name them."
          />
        </Grid2>
        <FailureNotice error={problem} fieldsInline />
        {children}
      </Stack>
    </form>
  );
}
