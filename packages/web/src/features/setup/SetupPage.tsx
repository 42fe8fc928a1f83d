// A project's setup: pick or create an app, create a key (shown once, kept only in this
// page's memory), paste a snippet filled with the real key and app, and watch the first
// record arrive. The selected app is in the URL (?app=).
import type { AppListItem, CreatedApiKey } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { KeyRound, Plus } from "lucide-react";
import { type ReactNode, useId, useMemo, useState } from "react";
import { Button } from "../../components/ui/Button";
import { SecretValue } from "../../components/ui/Code";
import { ErrorPanel, Notice, SkeletonRows } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { isApiError } from "../../lib/api-client";
import { pluralise } from "../../lib/format";
import {
  appKeysQuery,
  appsQuery,
  environmentsQuery,
  firstRequestQuery,
  keys,
  projectQuery,
} from "../../lib/queries";
import { appsApi } from "../../lib/resources-api";
import { CreateAppFields, useCreateApp } from "../apps";
import { FirstRequestPanel } from "./FirstRequestPanel";
import styles from "./Setup.module.css";
import { SnippetTabs } from "./SnippetTabs";

const route = getRouteApi("/app/projects/$project/setup");

function Step({ number, done, children }: { number: number; done: boolean; children: ReactNode }) {
  return (
    <li className={styles.step}>
      <span className={[styles.stepNumber, done ? styles.stepDone : ""].join(" ")} aria-hidden="true">
        {number}
      </span>
      <div>{children}</div>
    </li>
  );
}

export function SetupPage() {
  const { project } = route.useParams();
  const { app: appParam } = route.useSearch();
  const navigate = useNavigate();
  const projectInfo = useQuery(projectQuery(project));
  const apps = useQuery(appsQuery(project));
  const access = useProjectAccess(project);
  const canCreateApp = access.can("apps:write");
  const [creating, setCreating] = useState(false);
  // The whole key exists only here, for this visit: never stored, never sent anywhere else.
  const [createdKeys, setCreatedKeys] = useState<Record<string, CreatedApiKey>>({});
  const [nonce] = useState(() => crypto.randomUUID().slice(0, 8));

  const selected: AppListItem | undefined =
    apps.data?.find((app) => app.slug === appParam) ?? (appParam === undefined ? apps.data?.[0] : undefined);
  const showCreate = canCreateApp && (creating || (apps.data !== undefined && apps.data.length === 0));
  // Shares the cache entry the waiting panel polls: no extra request.
  const firstRequest = useQuery({ ...firstRequestQuery(project, selected?.slug ?? ""), enabled: false });
  const received = selected !== undefined && !showCreate && Boolean(firstRequest.data);
  const selectApp = (slug: string) =>
    void navigate({
      to: "/projects/$project/setup",
      params: { project },
      search: { app: slug },
      replace: true,
    });

  const title = projectInfo.data ? `Set up ${projectInfo.data.name}` : "Set up your project";
  return (
    <Page>
      <PageHeader
        title={title}
        description="Connect an app in three steps. The last one shows the moment your first request record arrives."
      />
      {apps.isError ? (
        <ErrorPanel what="the project's apps" error={apps.error} onRetry={() => void apps.refetch()} />
      ) : null}
      <ol className={styles.steps}>
        <Step number={1} done={selected !== undefined && !showCreate}>
          <AppStep
            project={project}
            apps={apps.data}
            loading={apps.isPending || !access.loaded}
            canCreate={canCreateApp}
            selected={showCreate ? undefined : selected}
            showCreate={showCreate}
            onSelect={(slug) => {
              setCreating(false);
              selectApp(slug);
            }}
            onCreateNew={() => setCreating(true)}
            onCreated={(slug) => {
              setCreating(false);
              selectApp(slug);
            }}
          />
        </Step>
        <Step
          number={2}
          done={selected !== undefined && (createdKeys[selected.slug] !== undefined || received)}
        >
          {selected && !showCreate ? (
            <KeyStep
              project={project}
              app={selected}
              canCreateKey={access.can("keys:manage")}
              created={createdKeys[selected.slug]}
              onCreated={(key) => setCreatedKeys((current) => ({ ...current, [selected.slug]: key }))}
            />
          ) : (
            <Card title="Create an API key" description="Choose or create an app first." />
          )}
        </Step>
        <Step number={3} done={received}>
          {selected && !showCreate ? (
            <SendStep
              project={project}
              app={selected}
              apiKey={createdKeys[selected.slug]?.key ?? null}
              nonce={nonce}
            />
          ) : (
            <Card title="Send your first request" description="Snippets appear once the app exists." />
          )}
        </Step>
      </ol>
    </Page>
  );
}

function AppStep({
  project,
  apps,
  loading,
  canCreate,
  selected,
  showCreate,
  onSelect,
  onCreateNew,
  onCreated,
}: {
  project: string;
  apps: AppListItem[] | undefined;
  loading: boolean;
  canCreate: boolean;
  selected: AppListItem | undefined;
  showCreate: boolean;
  onSelect: (slug: string) => void;
  onCreateNew: () => void;
  onCreated: (slug: string) => void;
}) {
  const toast = useToast();
  const formId = useId();
  const create = useCreateApp(project, (app) => {
    toast(`App “${app.name}” created`);
    onCreated(app.slug);
  });
  const hasApps = (apps?.length ?? 0) > 0;
  return (
    <Card
      title={showCreate ? "Create an app" : "Choose an app"}
      description={
        showCreate
          ? "An app is one service whose requests you send: its records carry the app's id."
          : "Records name the app they belong to. Pick the one you are connecting."
      }
      footer={
        showCreate ? (
          <>
            <span>You can add more apps later under Settings.</span>
            <span>
              {hasApps ? (
                <Button variant="ghost" onClick={() => onSelect(apps?.[0]?.slug ?? "")}>
                  Cancel
                </Button>
              ) : null}{" "}
              <Button type="submit" form={formId} variant="primary" busy={create.isPending}>
                Create app
              </Button>
            </span>
          </>
        ) : undefined
      }
    >
      {loading ? (
        <SkeletonRows rows={2} label="Loading apps" />
      ) : showCreate ? (
        <CreateAppFields formId={formId} error={create.error} onSubmit={(app) => create.mutate(app)} />
      ) : !hasApps ? (
        <Notice tone="info" role="status">
          This project has no apps yet. Members, admins and owners can create one; your role reads only.
        </Notice>
      ) : (
        <div className={styles.appChoices} role="group" aria-label="Apps">
          {apps?.map((app) => (
            <button
              key={app.slug}
              type="button"
              className={styles.appChoice}
              aria-pressed={app.slug === selected?.slug}
              onClick={() => onSelect(app.slug)}
            >
              {app.name}
            </button>
          ))}
          {canCreate ? (
            <button type="button" className={styles.appChoice} onClick={onCreateNew}>
              <Plus size={15} aria-hidden="true" />
              New app
            </button>
          ) : null}
        </div>
      )}
    </Card>
  );
}

function KeyStep({
  project,
  app,
  canCreateKey,
  created,
  onCreated,
}: {
  project: string;
  app: AppListItem;
  canCreateKey: boolean;
  created: CreatedApiKey | undefined;
  onCreated: (key: CreatedApiKey) => void;
}) {
  if (!canCreateKey) {
    return (
      <Card title="Get an API key" description={`Your app sends records for ${app.name} with a key.`}>
        <Notice tone="info" role="status">
          Admins and owners create API keys. Ask one for a key for {app.name}, then put it in the snippet in
          place of &lt;your API key&gt;.
        </Notice>
      </Card>
    );
  }
  return <KeyCreator project={project} app={app} created={created} onCreated={onCreated} />;
}

function KeyCreator({
  project,
  app,
  created,
  onCreated,
}: {
  project: string;
  app: AppListItem;
  created: CreatedApiKey | undefined;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const queryClient = useQueryClient();
  const appKeys = useQuery(appKeysQuery(project, app.slug));
  const create = useMutation({
    mutationFn: () => appsApi.createKey(project, app.slug, `${app.name} ingest`),
    onSuccess: async (key) => {
      onCreated(key);
      await queryClient.invalidateQueries({ queryKey: keys.appKeys(project, app.slug) });
    },
  });
  const live = appKeys.data?.filter((key) => !key.is_revoked) ?? [];
  const limitReached = isApiError(create.error) && create.error.code === "limit_reached";
  return (
    <Card
      title="Create an API key"
      description={`Your app sends records with this key. It may send records for ${app.name} only.`}
    >
      {created ? (
        <div className={styles.keyRow}>
          <SecretValue value={created.key} label={`API key ${created.name}`} />
          <Notice tone="warning" title="Copy it now">
            This is the only time Sightline shows the whole key; it keeps only a hash. The snippets below
            already contain it.
          </Notice>
        </div>
      ) : (
        <div className={styles.keyRow}>
          {appKeys.isSuccess && live.length > 0 ? (
            <p className={styles.keyMeta}>
              {app.name} already has {pluralise(live.length, "live key")} (
              {live.map((key) => `${key.prefix}…`).join(", ")}
              ). Whole keys are shown only when created: make a new one to fill in the snippets, or paste
              yours.
            </p>
          ) : null}
          {create.isError ? (
            <Notice
              tone={limitReached ? "warning" : "danger"}
              role="alert"
              title={limitReached ? "Key limit reached" : undefined}
            >
              {create.error instanceof Error ? create.error.message : "The key could not be created."}
              {limitReached ? (
                <>
                  {" "}
                  <Link to="/projects/$project/settings/keys" params={{ project }}>
                    Revoke unused keys
                  </Link>{" "}
                  to make room.
                </>
              ) : null}
            </Notice>
          ) : null}
          <div>
            <Button variant="primary" busy={create.isPending} onClick={() => create.mutate()}>
              <KeyRound size={16} aria-hidden="true" />
              Create an API key for {app.name}
            </Button>
          </div>
        </div>
      )}
    </Card>
  );
}

function SendStep({
  project,
  app,
  apiKey,
  nonce,
}: {
  project: string;
  app: AppListItem;
  apiKey: string | null;
  nonce: string;
}) {
  const environments = useQuery(environmentsQuery(project, app.slug));
  const environment = environments.data?.[0]?.slug ?? "production";
  const context = useMemo(
    () => ({
      baseUrl: window.location.origin,
      apiKey,
      projectSlug: project,
      appSlug: app.slug,
      environment,
      nonce,
    }),
    [apiKey, project, app.slug, environment, nonce],
  );
  return (
    <Card
      title="Send your first request"
      description={
        apiKey
          ? "Paste one of these where your app runs. They carry your new key and the app's id."
          : "Create a key above to fill it in, or replace <your API key> with a key you already have."
      }
    >
      <SnippetTabs context={context} framework={app.framework} />
      <div className={styles.afterSnippets}>
        <FirstRequestPanel project={project} app={app.slug} appName={app.name} />
      </div>
    </Card>
  );
}
